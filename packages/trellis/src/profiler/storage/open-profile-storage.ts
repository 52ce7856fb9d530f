import { MemoryProfileStorage } from './memory-profile-storage.ts';
import type { ProfileStorage, RetentionOptions } from './profile-storage.ts';
import { SqliteProfileStorage, sqlitePathOf } from './sqlite-profile-storage.ts';

export interface OpenOptions {
  /**
   * Who writes a SQLite file: a writer thread of the store's own (default), or the calling thread
   * (the profiler thread, which is one already).
   */
  readonly writer?: 'thread' | 'inline';
  /**
   * Redis: how long a command may wait for its answer, reconnections included, before it fails.
   * The profiler's pages read with a bound, so a Redis that went away answers them 503 promptly:
   * ioredis otherwise retries each read through its reconnection backoff (2.4 to 5.9 s a page).
   */
  readonly commandTimeoutMs?: number;
}

/**
 * A Redis DSN split into the client's URL and the store's key prefix (`?prefix=`, so several apps
 * or environments can share a database; `trellis:profiler:` when absent).
 */
export function redisDsn(dsn: string): { url: string; prefix: string | undefined } {
  const url = new URL(dsn);
  const prefix = url.searchParams.get('prefix') ?? undefined;
  url.searchParams.delete('prefix');
  return { url: url.href, prefix };
}

/** Whether the store a DSN names lives in this thread alone (`memory:`, `sqlite::memory:`). */
export function isThreadLocal(dsn: string): boolean {
  return dsn === 'memory:' || sqlitePathOf(dsn) === ':memory:';
}

/**
 * Opens the store a `PROFILER_DSN` names: `memory:`, `sqlite:<file>` or `redis://…` (`rediss://`
 * for TLS). The Redis client is loaded only when asked for, so the other stores never load ioredis.
 */
export async function openProfileStorage(dsn: string, retention: RetentionOptions, options: OpenOptions = {}): Promise<ProfileStorage> {
  if (dsn === 'memory:') return new MemoryProfileStorage(retention);
  if (dsn.startsWith('sqlite:')) return new SqliteProfileStorage(sqlitePathOf(dsn), retention, { ...(options.writer ? { writer: options.writer } : {}) });
  if (/^rediss?:\/\//.test(dsn)) {
    const { url, prefix } = redisDsn(dsn);
    const [{ Redis }, { RedisProfileStorage }] = await Promise.all([import('ioredis'), import('./redis-profile-storage.ts')]);
    // disconnectTimeout: how long a closing client waits for Redis to close the connection before
    // destroying it (ioredis: 2 s); a partitioned Redis never does, and a shutdown waited for it.
    const client = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true, disconnectTimeout: 500, ...(options.commandTimeoutMs ? { commandTimeout: options.commandTimeoutMs } : {}) });
    // A store error is logged by the writer and never fails a request; keep ioredis from printing
    // too. The connection's last error is kept to say why commands fail.
    let lastError: Error | null = null;
    client.on('error', (error: Error) => (lastError = error));
    client.on('ready', () => (lastError = null));
    return new RedisProfileStorage(client, { ...retention, ownsClient: true, connectionError: () => lastError, ...(prefix !== undefined ? { prefix } : {}) });
  }
  throw new Error(`Unsupported PROFILER_DSN "${dsn}": expected memory:, sqlite:<file> or redis://…`);
}
