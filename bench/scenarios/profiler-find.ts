import { join } from 'node:path';
import type { ProfileQuery } from '../../packages/trellis/src/profiler/profile.ts';
import type { ProfileStorage } from '../../packages/trellis/src/profiler/storage/profile-storage.ts';
import { loadProfilerStorage } from '../lib/profiler-modules.ts';
import { redisAvailable } from '../lib/redis-available.ts';
import { median, percentile } from '../lib/stats.ts';
import type { Measurement, Scenario } from './scenario.ts';

/** What the search page asks for: newest, `latest`, each exact filter, URL substrings long and short, a combination. */
const QUERIES: readonly ProfileQuery[] = [
  { limit: 10 },
  { limit: 50 },
  { limit: 1, mainOnly: true },
  { method: 'POST', limit: 10 },
  { statusCode: 404, limit: 10 },
  { ip: '10.1.2.3', limit: 10 },
  { url: '/books/1', limit: 10 },
  { url: 'no-such-path', limit: 10 },
  { url: 'ok', limit: 10 },
  { method: 'DELETE', statusCode: 500, limit: 10 },
  { token: '0f00aa', limit: 1 },
];
const ITERATIONS = 20;

export const profilerFind: Scenario = {
  name: 'profiler-find',
  title: 'ProfileStorage.find over the stored profiles (median, p95)',
  async skipReason(ctx) {
    const m = await loadProfilerStorage(ctx.root);
    return typeof m === 'string' ? m : null;
  },
  async run(ctx) {
    const m = await loadProfilerStorage(ctx.root);
    if (typeof m === 'string') throw new Error(m);
    const notes = [`storage modules from ${m.source}`, `${QUERIES.length} queries × ${ITERATIONS} runs each per store`];
    const stores: Array<[string, string]> = [['sqlite', `sqlite:${join(ctx.workDir, `find-${process.pid}.db`)}`]];
    if (await redisAvailable()) stores.push(['redis', `redis://127.0.0.1:6379/15`]);
    else notes.push('skipped: Redis storage: Redis is not reachable at 127.0.0.1:6379');

    const measurements: Measurement[] = [];
    const metrics: Record<string, number> = {};
    for (const [name, dsn] of stores) {
      const count = name === 'redis' ? ctx.options.findProfilesRedis : ctx.options.findProfiles;
      const retention = { maxProfiles: count + 1, ttlSeconds: 30 * 86400 };
      const prefix = `bench:find:${process.pid}:`;
      // The Redis store takes its prefix from the client options; open it directly for a private prefix.
      const storage = name === 'redis' ? await openRedis(prefix, retention) : await m.openProfileStorage(dsn, retention);
      try {
        await storage.purge();
        const t0 = performance.now();
        ctx.log(`  ${name}: writing ${count} profiles`);
        await m.bulkWrite(storage, m.syntheticProfiles(count, { spacingMs: 100 }), 2000);
        const seedSeconds = (performance.now() - t0) / 1000;
        notes.push(`${name}: stored ${count.toLocaleString('en-US')} profiles in ${seedSeconds.toFixed(1)} s`);
        const samples: number[] = [];
        let worst = { query: '', p95: 0 };
        for (const query of QUERIES) {
          const own: number[] = [];
          for (let i = 0; i < ITERATIONS; i++) {
            const t = performance.now();
            await storage.find(query);
            own.push(performance.now() - t);
          }
          samples.push(...own);
          const p95 = percentile(own, 95);
          if (p95 > worst.p95) worst = { query: JSON.stringify(query), p95 };
        }
        measurements.push(
          { name: `${name}: profiles stored`, value: count, unit: '' },
          { name: `${name}: find median`, value: median(samples), unit: 'ms' },
          { name: `${name}: find p95`, value: percentile(samples, 95), unit: 'ms' },
          { name: `${name}: slowest query p95`, value: worst.p95, unit: `ms ${worst.query}` },
        );
        metrics[`find-median-ms:${name}`] = median(samples);
        metrics[`find-p95-ms:${name}`] = percentile(samples, 95);
      } finally {
        await storage.purge().catch(() => {});
        await storage.close();
      }
    }
    return { kind: 'measure', measurements, metrics, notes };
  },
};

async function openRedis(prefix: string, retention: { maxProfiles: number; ttlSeconds: number }): Promise<ProfileStorage> {
  const [{ Redis }, { RedisProfileStorage }] = await Promise.all([import('ioredis'), import('trellis/profiler/storage/redis')]);
  const client = new Redis('redis://127.0.0.1:6379/15', { maxRetriesPerRequest: 2 });
  return new RedisProfileStorage(client, { ...retention, prefix, ownsClient: true });
}
