import type { LoadRequest } from '../lib/load-generator.ts';
import { compareServers } from '../lib/compare-servers.ts';
import { BENCH_JWT_SECRET, bookshopFixture, bookshopMissing, type BookshopFixture } from '../lib/bookshop-fixture.ts';
import type { ServerSpec } from '../lib/server-process.ts';
import type { Scenario } from './scenario.ts';
import { profiledServers } from './profiled-servers.ts';
import { fastifyBaseline, rawNode, trellisServer } from './server-specs.ts';
import { BOOKSHOP_SCRIPT } from '../lib/bookshop-node-args.ts';

const SCRIPT = BOOKSHOP_SCRIPT;

export interface ResourceScenarioOptions {
  readonly name: string;
  readonly title: string;
  readonly request: (fixture: BookshopFixture) => LoadRequest;
  readonly expectStatus: number;
  /** Whether the hand-written Fastify + Kysely baseline serves this request; else the ratio is to bookshop-prod. */
  readonly baseline: boolean;
  /** Add the profiler with Redis storage too (costly in time; one scenario is enough). */
  readonly redis?: boolean;
  /** Include the debug servers (profiler off and on); default true. */
  readonly debug?: boolean;
}

/**
 * The bookshop against the hand-written Fastify + Kysely baseline on the same seeded SQLite file,
 * with the raw ceiling replaying bookshop-prod's bytes, and the debug configuration with the
 * profiler off and on.
 */
export function resourceScenario(o: ResourceScenarioOptions): Scenario {
  return {
    name: o.name,
    title: o.title,
    skipReason: async (ctx) => bookshopMissing(ctx.root),
    async run(ctx) {
      const fixture = await bookshopFixture(ctx.root, ctx.workDir);
      const request = o.request(fixture);
      const env = { DATABASE_URL: fixture.databaseUrl, JWT_SECRET: BENCH_JWT_SECRET };
      const debugOff = trellisServer(SCRIPT, 'bookshop', 'debug', null, ctx.workDir, env);
      const debug = o.debug ?? true;
      const profiled = debug ? await profiledServers(ctx, (store) => trellisServer(SCRIPT, 'bookshop', 'debug', store, ctx.workDir, env), '/books/1', o.redis ?? false) : { specs: [], notes: [] };
      const withProfiler = profiled.specs;
      const servers: ServerSpec[] = [
        rawNode(),
        ...(o.baseline ? [fastifyBaseline(env)] : []),
        trellisServer(SCRIPT, 'bookshop', 'prod', null, ctx.workDir, env),
        ...(debug ? [debugOff, ...withProfiler] : []),
      ];
      const result = await compareServers(ctx, {
        request,
        expectStatus: o.expectStatus,
        baseline: o.baseline ? 'fastify-baseline' : 'bookshop-prod',
        bytesFrom: 'bookshop-prod',
        servers,
        pairs: withProfiler.map((s) => [`profiler-ratio:${s.name}`, s.name, debugOff.name] as const),
      });
      return { ...result, notes: [...profiled.notes, ...result.notes] };
    },
  };
}
