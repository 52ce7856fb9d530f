import type { LoadRequest } from '../lib/load-generator.ts';
import { BENCH_JWT_SECRET, bookshopFixture, bookshopMissing } from '../lib/bookshop-fixture.ts';
import type { ServerSpec } from '../lib/server-process.ts';
import type { ScenarioContext } from './scenario.ts';
import { trellisServer } from './server-specs.ts';
import { BOOKSHOP_SCRIPT } from '../lib/bookshop-node-args.ts';

/**
 * The server and request the profiler scenarios (RSS, page render) load: the bookshop in the debug
 * configuration with the profiler on (SQLite storage), GET /books/1, so each profile carries a real
 * database query; a bare Trellis app with a JSON route where the bookshop is not there.
 */
export async function profiledTarget(ctx: ScenarioContext): Promise<{ spec: ServerSpec; request: LoadRequest }> {
  if (bookshopMissing(ctx.root) === null) {
    const fixture = await bookshopFixture(ctx.root, ctx.workDir);
    return {
      spec: trellisServer(BOOKSHOP_SCRIPT, 'bookshop', 'debug', 'sqlite', ctx.workDir, { DATABASE_URL: fixture.databaseUrl, JWT_SECRET: BENCH_JWT_SECRET }),
      request: { method: 'GET', path: '/books/1', headers: { accept: 'application/ld+json' } },
    };
  }
  return {
    spec: trellisServer('bench/servers/trellis-app.ts', 'trellis', 'debug', 'sqlite', ctx.workDir),
    request: { method: 'GET', path: '/hello', headers: { accept: 'application/json' } },
  };
}
