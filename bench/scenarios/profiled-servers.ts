import { profilerMissing } from '../lib/probe-profiler.ts';
import { redisAvailable } from '../lib/redis-available.ts';
import type { ServerSpec } from '../lib/server-process.ts';
import type { ScenarioContext } from './scenario.ts';

/**
 * The profiled servers a scenario can add, each with the reason it is left out when it is. Shared
 * by the kernel and resource scenarios: profiler on vs off is measured on both.
 */
export async function profiledServers(ctx: ScenarioContext, make: (store: 'sqlite' | 'redis') => ServerSpec, probePath: string, withRedis = true): Promise<{ specs: ServerSpec[]; notes: string[] }> {
  const sqlite = make('sqlite');
  const missing = await profilerMissing(sqlite, ctx.root, probePath);
  if (missing) return { specs: [], notes: [`skipped: profiler servers: ${missing}`] };
  if (!withRedis) return { specs: [sqlite], notes: [] };
  if (!(await redisAvailable())) return { specs: [sqlite], notes: ['skipped: profiler with Redis storage: Redis is not reachable at 127.0.0.1:6379'] };
  const redis = make('redis');
  const redisMissing = await profilerMissing(redis, ctx.root, probePath);
  return redisMissing ? { specs: [sqlite], notes: [`skipped: profiler with Redis storage: ${redisMissing}`] } : { specs: [sqlite, redis], notes: [] };
}
