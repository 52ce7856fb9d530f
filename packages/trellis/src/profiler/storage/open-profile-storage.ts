import { MemoryProfileStorage } from './memory-profile-storage.ts';
import type { ProfileStorage, RetentionOptions } from './profile-storage.ts';
import { SqliteProfileStorage, sqlitePathOf } from './sqlite-profile-storage.ts';

/**
 * Opens the store a `PROFILER_DSN` names: `memory:`, `sqlite:<file>` or `redis://…` (`rediss://`
 * for TLS). The Redis client is loaded only when asked for, so the other stores never load ioredis.
 */
export async function openProfileStorage(dsn: string, retention: RetentionOptions): Promise<ProfileStorage> {
  if (dsn === 'memory:') return new MemoryProfileStorage(retention);
  if (dsn.startsWith('sqlite:')) return new SqliteProfileStorage(sqlitePathOf(dsn), retention);
  if (/^rediss?:\/\//.test(dsn)) {
    const [{ Redis }, { RedisProfileStorage }] = await Promise.all([import('ioredis'), import('./redis-profile-storage.ts')]);
    const client = new Redis(dsn, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    // A store error is logged by the writer and never fails a request; keep ioredis from printing too.
    client.on('error', () => {});
    return new RedisProfileStorage(client, { ...retention, ownsClient: true });
  }
  throw new Error(`Unsupported PROFILER_DSN "${dsn}": expected memory:, sqlite:<file> or redis://…`);
}
