/**
 * The database's own words when it refused a value the request carried: PostgreSQL's SQLSTATE
 * class 22, data exception (an integer or numeric out of its column's range, text that is not a
 * number for an integer column, a string too long for a varchar(n), a date out of range). Trellis
 * refuses what it can see before SQL (integer-range.ts, schemas, filters); a column narrower than
 * the schema says still gets here. The request asked for something the store cannot hold: a 422
 * quoting the database (class 22 messages name the value and the type, nothing of the schema or
 * the query), never a 500. Null for any other error.
 */
export function databaseRejectedValue(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  // pg's DatabaseError carries the server's severity; a network error's code is never class 22.
  if (typeof code !== 'string' || !/^22[0-9A-Z]{3}$/.test(code) || typeof severity !== 'string') return null;
  return error.message;
}
