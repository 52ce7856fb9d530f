import { redisAvailable } from './redis-available.ts';

/**
 * Deletes the keys matching `pattern` in the bench's Redis database. The servers purge their own
 * prefix on a clean exit; one killed after the stop grace period (a profiler with a backlog of
 * writes) cannot, so the harness sweeps its run's prefixes once at the end.
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
