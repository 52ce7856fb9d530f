/**
 * PostgreSQL's data exceptions (SQLSTATE class 22) that a value a request carried causes, by
 * condition name (PostgreSQL, Appendix A): a string too long for a varchar(n), an integer or a
 * numeric out of its column's range, text that is no number or date for such a column. Trellis
 * refuses what it can see before SQL (integer-range.ts, schemas, filters); a column narrower than
 * the schema says still gets here. Other class 22 conditions (division by zero, a bad regular
 * expression) are the server's own bugs: they stay 500s.
 */
const CAUSED_BY_A_VALUE: Readonly<Record<string, string>> = {
  '22001': 'a string longer than its column holds',
  '22003': 'a number out of its column\'s range',
  '22007': 'a date or time in no format the column reads',
  '22008': 'a date or time out of its column\'s range',
  '22021': 'a character the database cannot store',
  '22P02': 'a value that is not of its column\'s type',
  '22P05': 'a character the database cannot store',
};

/**
 * What the database refused of a request, said without its own message: it may quote a stored
 * value (a cast of another row's text), never the client's to read. Null for any other error.
 */
export function databaseRejectedValue(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  // pg's DatabaseError carries the server's severity; a network error's code is never class 22.
  if (typeof code !== 'string' || typeof severity !== 'string') return null;
  const what = CAUSED_BY_A_VALUE[code];
  return what === undefined ? null : `${what} (SQLSTATE ${code})`;
}
