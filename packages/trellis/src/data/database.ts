import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import { createRequire } from 'node:module';
import type pgModule from 'pg';
import { observePg } from './observe-pg.ts';
import { unobserved } from './observe-sqlite.ts';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';
import { makeSqliteDirectory, openingSqliteFile } from './sqlite-file.ts';
import { markOwnPgClient } from './own-pg-clients.ts';

/** The database handle resources, the firewall and commands share. */
export type Database = Kysely<any>;

export interface OpenDatabaseOptions {
  /** PostgreSQL only: the schema to use (`search_path`), e.g. one per test file. */
  readonly schema?: string;
  /** PostgreSQL only: how long a request waits for a connection before a 503 (default 5 s). */
  readonly connectTimeoutMs?: number;
  /**
   * PostgreSQL only: how long a query may go without an answer before it fails, a 503, and its
   * connection is discarded (DATABASE_QUERY_TIMEOUT, default 10 s).
   */
  readonly queryTimeoutMs?: number;
}

/** A client whose query got no answer in time: its connection is not reused (see `discardingStuck`). */
const STUCK = Symbol('trellis.pgStuck');
type PgClient = { query: (...args: any[]) => any; release: (destroy?: unknown) => void; [STUCK]?: true };
type PgPool = { connect(): Promise<PgClient>; end(): Promise<void> };

/**
 * The pool as Kysely sees it, except that a client whose query timed out is destroyed when
 * released, not pooled again. A network partition leaves established connections silent, not
 * closed: without a read timeout a query on one waited for TCP to give up (over ten minutes here,
 * its request and pool slot with it); with pg's `query_timeout` alone the timed-out query stays
 * queued on its client, and every later query on that client waited behind it.
 */
function discardingStuck(pool: PgPool): PgPool {
  return {
    async connect() {
      const client = await pool.connect();
      const release = client.release;
      client.release = (destroy?: unknown) => release.call(client, destroy ?? (client[STUCK] ? true : undefined));
      return client;
    },
    end: () => pool.end(),
  };
}

/** Marks a new connection's client when one of its queries times out (pg's read timeout), once per connection. */
function markStuckOnTimeout(client: PgClient): void {
  const query = client.query;
  client.query = function (this: PgClient, ...args: unknown[]) {
    const result = query.apply(this, args);
    if (result instanceof Promise) result.catch((error: unknown) => void (error instanceof Error && error.message === 'Query read timeout' && (this[STUCK] = true)));
    return result;
  };
}

/** Who hears errors of idle pooled connections (see `onDatabaseError`). */
const errorListeners = new WeakMap<Database, Set<(error: Error) => void>>();

/**
 * Hears errors the database driver raises outside any query: a pooled PostgreSQL connection that
 * the server or the network dropped while idle. The pool always handles them (an unhandled
 * 'error' event would end the process); the next query reconnects. Returns the unsubscribe.
 */
export function onDatabaseError(db: Database, listener: (error: Error) => void): () => void {
  const set = errorListeners.get(db);
  set?.add(listener);
  return () => void set?.delete(listener);
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
/**
 * pg, loaded when a PostgreSQL URL is opened (a CommonJS package, so synchronously): an app on
 * SQLite, the default, never loads it (startup time).
 */
let pgLoaded: typeof pgModule | null = null;
function pgDriver(): typeof pgModule {
  if (pgLoaded === null) {
    pgLoaded = createRequire(import.meta.url)('pg') as typeof pgModule;
    observePg(pgLoaded);
  }
  return pgLoaded;
}

const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    PG_TYPE_PARSERS[oid] ?? pgDriver().types.getTypeParser(oid, format as 'text')) as typeof pgModule.types.getTypeParser,
};

/**
 * Opens a database from a URL: `sqlite:<file>` (the directory is created), `sqlite::memory:`, or
 * `postgres://…`. Every query is published on `trellis:db:query` with its SQL, parameters and
 * duration (by the SQLite dialect, or, for PostgreSQL, by pg's client itself: observe-pg.ts).
 */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    // A file that cannot be made or opened is said naming DATABASE_URL, where it comes from.
    if (file !== ':memory:') makeSqliteDirectory(file, 'DATABASE_URL');
    // Another connection holding the write lock (a CLI command, a second process) is waited for
    // up to 5 s (SQLite's busy handler), then the request gets a 503, not a 500.
    // Its statements publish through the dialect; its own `exec` calls (pragmas) are not the app's queries.
    const sqlite = openingSqliteFile(file, 'DATABASE_URL', () => unobserved(new DatabaseSync(file, { timeout: 5000 })));
    sqlite.exec('PRAGMA foreign_keys = ON');
    // LIKE is case-insensitive in SQLite by default; the case-sensitive search strategies need it not to be.
    sqlite.exec('PRAGMA case_sensitive_like = ON');
    if (file !== ':memory:') sqlite.exec('PRAGMA journal_mode = WAL');
    // The dialect publishes its queries itself: Kysely's log hook costs its timing and an await per query even when nobody listens.
    return new Kysely<any>({ dialect: new NodeSqliteDialect(sqlite, { publishQueries: true }) });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new (pgDriver().Pool)({
      connectionString: url,
      types: pgTypes,
      max: 10,
      // Without it a request waits for an unreachable server for ever; with it, a 503.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      query_timeout: options.queryTimeoutMs ?? 10_000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: discardingStuck(pool as unknown as PgPool) as never }) });
    const listeners = new Set<(error: Error) => void>();
    errorListeners.set(db, listeners);
    // An idle client's error (the server restarted, the network dropped) is emitted on the pool;
    // unhandled it would end the process. The pool has already discarded that client.
    const report = (error: Error) => {
      for (const listener of listeners) listener(error);
    };
    pool.on('error', report);
    // A checked-out client between two queries (Kysely holds one across a transaction, or from
    // acquire to query) emits its connection's error on itself, not on the pool: unheard, that
    // 'error' event ends the process. Its current or next query fails, and the pool discards it.
    pool.on('connect', (client) => {
      markOwnPgClient(client);
      client.on('error', report);
      markStuckOnTimeout(client as unknown as PgClient);
    });
    return db;
  }
  throw new Error(`Unsupported DATABASE_URL "${url}": expected sqlite:<file>, sqlite::memory: or postgres://…`);
}

export function isPostgres(db: Database): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
