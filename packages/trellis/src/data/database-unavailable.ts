/**
 * Whether an error means the database cannot be reached or cannot serve now (as opposed to a bad
 * query): the network is gone, the server is shutting down or refusing connections, a pool
 * connection timed out, SQLite's file is locked past its busy timeout. Such errors answer 503
 * with Retry-After (RFC 9110 §15.6.4), never a 500: the request was fine, the dependency was not.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    // PostgreSQL SQLSTATE classes 08 (connection exception) and 57P (operator intervention:
    // admin_shutdown, crash_shutdown, cannot_connect_now), and 53300 too_many_connections.
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300') return true;
    // node:sqlite: the file is locked by another connection longer than its busy timeout.
    if (code === 'ERR_SQLITE_ERROR' && /database is locked|SQLITE_BUSY/i.test(error.message)) return true;
  }
  // pg's own messages for a connection it lost or could not open (no code attached).
  return PG_MESSAGES.some((re) => re.test(error.message)) || (error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause));
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'SQLITE_BUSY']);

const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^Query read timeout$/,
];
