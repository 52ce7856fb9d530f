import { CompiledQuery, type Kysely } from 'kysely';
import { isCutParameter } from '../recorded-query.ts';

/** Words that have no place in a query EXPLAIN may look at, wherever they appear. */
const WRITES = /\b(insert|update|delete|merge|replace|upsert|drop|alter|create|truncate|grant|revoke|vacuum|attach|detach|pragma|copy|call|do|lock|set|reset|load)\b/i;

/**
 * Why `sql` may not be explained, or null when it may: a single SELECT (or WITH … SELECT), no
 * statement after it, no word that writes. EXPLAIN without ANALYZE never runs the query, and it
 * runs inside a read-only transaction besides (PostgreSQL); this is the third fence.
 */
export function notExplainable(sql: string): string | null {
  // String literals and quoted names are blanked first: a title 'update; drop' is neither.
  const text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, "''").trim().replace(/;\s*$/, '');
  if (!/^(select|with)\b/i.test(text)) return 'only a SELECT is explained';
  if (text.includes(';')) return 'a query of more than one statement is not explained';
  if (WRITES.test(text)) return 'a query that may write is not explained';
  return null;
}

/**
 * The plan of a recorded SELECT: SQLite's EXPLAIN QUERY PLAN (as an indented tree) or
 * PostgreSQL's EXPLAIN, in a read-only transaction. Parameters are the recorded ones; one kept
 * only in part (long, binary) is given as NULL: plans do not depend on such values.
 */
export async function explainQuery(database: Kysely<unknown>, sql: string, parameters: readonly unknown[]): Promise<string[]> {
  const params = parameters.map((p) => (isCutParameter(p) || (typeof p === 'object' && p !== null && 'binary' in p) ? null : p));
  const sqlite = database.getExecutor().adapter.constructor.name.toLowerCase().includes('sqlite');
  const text = sql.trim().replace(/;\s*$/, '');
  if (sqlite) {
    const { rows } = await database.executeQuery<{ id: number; parent: number; detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, params));
    const depth = new Map<number, number>([[0, -1]]);
    return rows.map((r) => {
      const d = (depth.get(r.parent) ?? -1) + 1;
      depth.set(r.id, d);
      return `${'  '.repeat(d)}${r.detail}`;
    });
  }
  return database.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw('SET TRANSACTION READ ONLY'));
    const { rows } = await trx.executeQuery<Record<string, string>>(CompiledQuery.raw(`EXPLAIN ${text}`, params));
    return rows.map((r) => String(Object.values(r)[0]));
  });
}
