import { kernelScenario } from './kernel-scenario.ts';

/** The seed's first rule: an unmatched path is a 404 with an exact message (an API client, so problem+json). */
export const notFound = kernelScenario('not-found', 'GET /robots.txt → 404 (routing error, problem+json)', { method: 'GET', path: '/robots.txt', headers: { accept: 'application/json' } }, 404);
