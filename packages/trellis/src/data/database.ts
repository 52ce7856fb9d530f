import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresAdapter, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { publish } from '../observe/channels.ts';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';

/** The database handle resources, the firewall and commands share. */
export type Database = Kysely<any>;

export interface OpenDatabaseOptions {
  /** PostgreSQL only: the schema to use (`search_path`), e.g. one per test file. */
  readonly schema?: string;
}

function logQuery(event: LogEvent): void {
  publish('dbQuery', () => ({
    sql: event.query.sql,
    parameters: event.query.parameters,
    durationMs: event.queryDurationMillis,
    ...(event.level === 'error' ? { error: event.error instanceof Error ? event.error.message : String(event.error) } : {}),
  }));
}

// pg returns dates, numerics and 64-bit counts as strings or Date objects; the API wants the
// same plain values SQLite gives, so these parsers apply to our pools only, not globally.
const PG_TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  20: (v) => Number(v), // int8 (COUNT)
  1700: (v) => Number(v), // numeric
  1082: (v) => v, // date: keep YYYY-MM-DD
  1114: (v) => new Date(`${v}Z`).toISOString(), // timestamp
  1184: (v) => new Date(v).toISOString(), // timestamptz
};
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    PG_TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Opens a database from a URL: `sqlite:<file>` (the directory is created), `sqlite::memory:`, or
 * `postgres://…`. Every query is published on `trellis:db:query` with its SQL, parameters and
 * duration (by the SQLite dialect, or Kysely's `log` hook for PostgreSQL).
 */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new DatabaseSync(file);
    sqlite.exec('PRAGMA foreign_keys = ON');
    // LIKE is case-insensitive in SQLite by default; the case-sensitive search strategies need it not to be.
    sqlite.exec('PRAGMA case_sensitive_like = ON');
    if (file !== ':memory:') sqlite.exec('PRAGMA journal_mode = WAL');
    // The dialect publishes its queries itself: Kysely's log hook costs its timing and an await per query even when nobody listens.
    return new Kysely<any>({ dialect: new NodeSqliteDialect(sqlite, { publishQueries: true }) });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      types: pgTypes,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    return new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: logQuery });
  }
  throw new Error(`Unsupported DATABASE_URL "${url}": expected sqlite:<file>, sqlite::memory: or postgres://…`);
}

export function isPostgres(db: Database): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
