import type { LoadRequest } from '../lib/load-generator.ts';
import type { ServerSpec } from '../lib/server-process.ts';
import type { ScenarioContext } from './scenario.ts';
import { trellisServer } from './server-specs.ts';

/**
 * The server and request the profiler scenarios (RSS, page render) load: a trivial JSON route
 * on a Trellis app with the profiler on, SQLite storage.
 */
export async function profiledTarget(ctx: ScenarioContext): Promise<{ spec: ServerSpec; request: LoadRequest }> {
  return {
    spec: trellisServer('bench/servers/trellis-app.ts', 'trellis', 'debug', 'sqlite', ctx.workDir),
    request: { method: 'GET', path: '/hello', headers: { accept: 'application/json' } },
  };
}
