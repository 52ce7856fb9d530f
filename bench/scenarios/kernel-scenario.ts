import type { LoadRequest } from '../lib/load-generator.ts';
import { compareServers } from '../lib/compare-servers.ts';
import { profilerMissing } from '../lib/probe-profiler.ts';
import { redisAvailable } from '../lib/redis-available.ts';
import type { ServerSpec } from '../lib/server-process.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { fastifyBaseline, rawNode, trellisServer } from './server-specs.ts';

const SCRIPT = 'bench/servers/trellis-app.ts';

/**
 * The profiled servers a scenario can add, each with the reason it is left out when it is. Shared
 * by the kernel and resource scenarios: profiler on vs off is measured on both.
 */
export async function profiledServers(ctx: ScenarioContext, make: (store: 'sqlite' | 'redis') => ServerSpec, probePath: string, redis = true): Promise<{ specs: ServerSpec[]; notes: string[] }> {
  const sqlite = make('sqlite');
  const missing = await profilerMissing(sqlite, ctx.root, probePath);
  if (missing) return { specs: [], notes: [`skipped: profiler servers: ${missing}`] };
  if (!redis) return { specs: [sqlite], notes: [] };
  if (!(await redisAvailable())) return { specs: [sqlite], notes: ['skipped: profiler with Redis storage: Redis is not reachable at 127.0.0.1:6379'] };
  const redis = make('redis');
  const redisMissing = await profilerMissing(redis, ctx.root, probePath);
  return redisMissing ? { specs: [sqlite], notes: [`skipped: profiler with Redis storage: ${redisMissing}`] } : { specs: [sqlite, redis], notes: [] };
}

/**
 * The framework's fixed cost, with no resources: Trellis (production and debug) against plain
 * Fastify sending the same bytes, and the raw node:http ceiling.
 */
export function kernelScenario(name: string, title: string, request: LoadRequest, expectStatus: number): Scenario {
  return {
    name,
    title,
    skipReason: async () => null,
    async run(ctx) {
      const debugOff = trellisServer(SCRIPT, 'trellis', 'debug', null, ctx.workDir);
      const profiled = await profiledServers(ctx, (store) => trellisServer(SCRIPT, 'trellis', 'debug', store, ctx.workDir), request.path, false);
      const result = await compareServers(ctx, {
        request,
        expectStatus,
        baseline: 'fastify-baseline',
        bytesFrom: 'trellis-prod',
        servers: [rawNode(), fastifyBaseline(), trellisServer(SCRIPT, 'trellis', 'prod', null, ctx.workDir), debugOff, ...profiled.specs],
        pairs: profiled.specs.map((s) => [`profiler-ratio:${s.name}`, s.name, debugOff.name] as const),
      });
      return { ...result, notes: [...profiled.notes, ...result.notes] };
    },
  };
}
