import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Database } from './database.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';

/** The database could not be reached within the wait: what startup reports in one line, no stack. */
export class DatabaseUnreachableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DatabaseUnreachableError';
  }
}

export interface WaitOptions {
  /** How long to keep trying (DATABASE_WAIT); 0 tries once. */
  readonly timeoutMs: number;
  /** Told once, at the first failure, that startup is waiting (a log line). */
  readonly onWaiting?: (message: string) => void;
}

/** `host:port` of a database URL, for messages (never its credentials); the file of a SQLite one. */
export function databaseLocation(url: string): string {
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length);
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}`;
  } catch {
    return 'the configured database';
  }
}

/**
 * Waits until the database answers `select 1`, retrying with backoff (250 ms doubling to 2 s)
 * while the failure is one of availability (a server still starting, a network not yet up); a
 * failure of another kind (bad credentials, a missing database) is thrown at once. Past the
 * wait, throws DatabaseUnreachableError naming DATABASE_URL's host and port.
 */
export async function waitForDatabase(db: Database, url: string, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = 250;
  let told = false;
  for (;;) {
    try {
      await sql`select 1`.execute(db);
      return;
    } catch (error) {
      const reason = error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error);
      if (!isDatabaseUnavailable(error)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new DatabaseUnreachableError(`cannot reach the database at ${databaseLocation(url)} (${reason}) after ${Math.round(options.timeoutMs / 1000)} s (DATABASE_URL; DATABASE_WAIT sets how long to wait).`, { cause: error });
      }
      if (!told) {
        told = true;
        options.onWaiting?.(`Database at ${databaseLocation(url)} is unreachable (${reason}); retrying for up to ${Math.round(options.timeoutMs / 1000)} s.`);
      }
      await sleep(Math.min(delay, left));
      delay = Math.min(delay * 2, 2000);
    }
  }
}
