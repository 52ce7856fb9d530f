import { redisAvailable } from './redis-available.ts';

/**
 * Deletes the keys matching `pattern` in the bench's Redis database. Each profiled server writes
 * under a prefix of the run's own (PROFILER_DSN `?prefix=`) and leaves its profiles there, as an
 * app does; the harness sweeps its run's prefixes once at the end.
 */
export async function purgeRedisKeys(pattern: string, url = 'redis://127.0.0.1:6379/15'): Promise<number> {
  if (!(await redisAvailable())) return 0;
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) deleted += await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  } finally {
    client.disconnect();
  }
}
