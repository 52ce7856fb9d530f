import { isCutParameter } from './recorded-query.ts';

/** A parameter as an SQL literal: strings quoted (quotes doubled), NULL, numbers, booleans as 1/0 or TRUE/FALSE. */
function literal(value: unknown, postgres: boolean): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'NULL';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return postgres ? (value ? 'TRUE' : 'FALSE') : value ? '1' : '0';
  if (isCutParameter(value)) return `'${value.cut.replaceAll("'", "''")}…' /* ${value.length} characters, cut */`;
  if (typeof value === 'object' && 'binary' in (value as object)) return `NULL /* binary, ${(value as { binary: number }).binary} bytes */`;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The statement with its parameters written in (Symfony's "runnable query"), for pasting into a
 * database console: `?` (SQLite) or `$n` (PostgreSQL) placeholders outside string literals and
 * quoted names are replaced. Parameters are the profile's, so redacted values stay redacted.
 */
export function runnableSql(sql: string, parameters: readonly unknown[]): string {
  const postgres = /\$\d/.test(sql);
  let next = 0;
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)|\?/g, (match, n: string | undefined) => {
    if (match.startsWith("'") || match.startsWith('"')) return match;
    const index = n === undefined ? next++ : Number(n) - 1;
    return index < parameters.length ? literal(parameters[index], postgres) : match;
  });
}
