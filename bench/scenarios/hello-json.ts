import { kernelScenario } from './kernel-scenario.ts';

/** A trivial JSON route: what every request pays for the framework before any resource work. */
export const helloJson = kernelScenario('hello-json', 'GET /hello → 200 {"hello":"world"} (trivial JSON route)', { method: 'GET', path: '/hello', headers: { accept: 'application/json' } }, 200);
