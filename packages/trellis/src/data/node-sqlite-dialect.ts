import type { DatabaseSync, StatementSync, SQLInputValue } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { channels } from '../observe/channels.ts';
import { publishQuery } from './publish-query.ts';
import { unobservedStatement } from './observe-sqlite.ts';

/** Prepared statements kept per connection; the API issues a handful of distinct SQL strings. */
const STATEMENT_CACHE_SIZE = 200;

function toSqlite(value: unknown): SQLInputValue {
  // node:sqlite binds only null, numbers, bigints, strings and bytes.
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

export interface NodeSqliteDialectOptions {
  /**
   * Publish every query on `trellis:db:query` (SQL, parameters, duration, error), timed around
   * the synchronous statement call. Free when nobody subscribes, unlike Kysely's `log` hook.
   */
  readonly publishQueries?: boolean;
}

/** Rows a statement returned, or, for a write, the rows it changed. */
function rowsOf(result: QueryResult<unknown>): number {
  return result.rows.length > 0 || result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows);
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  readonly #publish: boolean;
  readonly #statements = new Map<string, { stmt: StatementSync; reader: boolean }>();

  constructor(db: DatabaseSync, publishQueries: boolean) {
    this.#db = db;
    this.#publish = publishQueries;
  }

  #prepare(sql: string): { stmt: StatementSync; reader: boolean } {
    let entry = this.#statements.get(sql);
    if (entry === undefined) {
      // Published here, with the dialect's timing, never a second time by observe-sqlite.ts.
      const stmt = unobservedStatement(this.#db.prepare(sql));
      entry = { stmt, reader: stmt.columns().length > 0 };
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, entry);
    }
    return entry;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const observed = this.#publish && channels.dbQuery.hasSubscribers;
    const start = observed ? performance.now() : 0;
    try {
      const result = this.#execute<R>(compiled);
      if (observed) publishQuery(compiled.sql, compiled.parameters, start, rowsOf(result), undefined);
      return Promise.resolve(result);
    } catch (error) {
      if (observed) publishQuery(compiled.sql, compiled.parameters, start, undefined, error);
      return Promise.reject(error);
    }
  }

  #execute<R>(compiled: CompiledQuery): QueryResult<R> {
    const { stmt, reader } = this.#prepare(compiled.sql);
    const params = compiled.parameters.map(toSqlite);
    if (reader) return { rows: stmt.all(...params) as R[] };
    const { changes, lastInsertRowid } = stmt.run(...params);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { stmt } = this.#prepare(compiled.sql);
    for (const row of stmt.iterate(...compiled.parameters.map(toSqlite))) yield { rows: [row as R] };
  }
}

/**
 * SQLite runs DDL inside transactions (Kysely's adapter says otherwise, to be safe with every
 * driver): so the Migrator runs all pending migrations in one transaction, which `begin immediate`
 * serialises across processes. Two processes starting on a new file then migrate once, the second
 * waiting for the first, where each used to read "nothing applied" and the second crashed.
 */
class NodeSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** SQLite has one connection; transactions must not interleave, so callers queue for it. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return acquired;
  }
}

class NodeSqliteDriver implements Driver {
  readonly #db: DatabaseSync;
  readonly #connection: NodeSqliteConnection;
  readonly #mutex = new Mutex();
  #release: (() => void) | null = null;

  constructor(db: DatabaseSync, publishQueries: boolean) {
    this.#db = db;
    this.#connection = new NodeSqliteConnection(db, publishQueries);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#release = await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE takes the write lock now, not at the first write: two processes migrating a new
    // file at once queue here (busy timeout) instead of both reading "nothing applied" and the
    // second failing on "table already exists"; no read-then-write upgrade can deadlock either.
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    release?.();
  }

  async destroy(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}

/**
 * A Kysely dialect over Node's built-in `node:sqlite` (`DatabaseSync`): Kysely's own SQLite
 * adapter, compiler and introspector, with a driver that caches prepared statements.
 */
export class NodeSqliteDialect implements Dialect {
  readonly #db: DatabaseSync;
  readonly #publishQueries: boolean;

  constructor(db: DatabaseSync, options: NodeSqliteDialectOptions = {}) {
    this.#db = db;
    this.#publishQueries = options.publishQueries ?? false;
  }

  createDriver(): Driver {
    return new NodeSqliteDriver(this.#db, this.#publishQueries);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new NodeSqliteAdapter();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
