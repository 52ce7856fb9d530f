import type { TrellisConfig } from 'trellis';
import type { ProfileStorage } from 'trellis/profiler';

/**
 * Profiler options for a bench server. With Redis storage the bench wants its own key prefix
 * (BENCH_REDIS_PREFIX), which PROFILER_DSN cannot carry, so the server opens the same Redis store
 * itself with the configured retention and purges it on close; otherwise the app opens PROFILER_DSN.
 */
export async function benchProfilerOptions(config: TrellisConfig): Promise<{ options: { storage?: ProfileStorage }; close: () => Promise<void> }> {
  const prefix = process.env.BENCH_REDIS_PREFIX;
  if (!config.profiler.enabled || !prefix || !/^rediss?:\/\//.test(config.profiler.dsn)) return { options: {}, close: async () => {} };
  const [{ Redis }, { RedisProfileStorage }] = await Promise.all([import('ioredis'), import('trellis/profiler/storage/redis')]);
  const client = new Redis(config.profiler.dsn, { maxRetriesPerRequest: 2 });
  const storage = new RedisProfileStorage(client, { maxProfiles: config.profiler.maxProfiles, ttlSeconds: config.profiler.ttlSeconds, prefix, ownsClient: true });
  return {
    options: { storage },
    close: async () => {
      await storage.purge();
      await storage.close();
    },
  };
}
