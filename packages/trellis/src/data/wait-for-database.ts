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
      await withinDeadline(sql`select 1`.execute(db), options.timeoutMs > 0 ? deadline - Date.now() : null);
      return;
    } catch (error) {
      const reason = error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error);
      const refused = refusal(error, url);
      if (refused !== null) throw new DatabaseUnreachableError(refused, { cause: error });
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

/** The server did not answer a try before the wait ran out (it accepted the connection and said nothing). */
const NO_ANSWER = 'no answer';

/**
 * A try bounded by what is left of the wait: a server that accepts connections and never answers
 * held each try for pg's own connection timeout (5 s), so a 6 s wait ended after 11.
 */
async function withinDeadline<T>(attempt: Promise<T>, leftMs: number | null): Promise<T> {
  if (leftMs === null) return attempt;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(NO_ANSWER), { code: 'ETIMEDOUT' })), Math.max(leftMs, 0) + 100);
  });
  try {
    return await Promise.race([attempt, late]);
  } finally {
    clearTimeout(timer);
    // A try abandoned at the deadline may still fail later: nobody is waiting for it.
    attempt.catch(() => undefined);
  }
}

/**
 * A server that answers but will not serve this DATABASE_URL: no waiting helps, and the operator
 * gets one line saying what to fix, not pg's stack (PostgreSQL SQLSTATE, appendix A).
 */
function refusal(error: unknown, url: string): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  const name = databaseName(url);
  switch (code) {
    case '3D000': // invalid_catalog_name
      return `the database ${name ? `"${name}" ` : ''}does not exist at ${databaseLocation(url)} (DATABASE_URL): create it first${name ? ` (createdb ${name})` : ''}.`;
    case '28P01': // invalid_password
    case '28000': // invalid_authorization_specification
      return `the server at ${databaseLocation(url)} refused DATABASE_URL's credentials (${code}: ${(error as Error).message}).`;
    default:
      return null;
  }
}

/** The database a postgres:// URL names (its path), or null. */
function databaseName(url: string): string | null {
  try {
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    return /^[\w.$-]{1,63}$/.test(name) ? name : null;
  } catch {
    return null;
  }
}
