import { DatabaseSync, StatementSync } from 'node:sqlite';
import { channels } from '../observe/channels.ts';
import { publishQuery } from './publish-query.ts';

const OBSERVED = Symbol.for('trellis.sqlite.observed');
/** Databases whose queries are not published here: they publish their own, or are the profiler's. */
const quiet = new WeakSet<DatabaseSync>();
/** Statements of those databases (a statement does not name its database). */
const quietStatements = new WeakSet<StatementSync>();

// A wrapped method keeps whatever receiver it is called on.
type Method = (this: any, ...args: unknown[]) => unknown;

/** Leaves a database's queries out (the profiler's store is not the app's; the dialect publishes its own). */
export function unobserved(db: DatabaseSync): DatabaseSync {
  quiet.add(db);
  return db;
}

/** Leaves one statement out, whenever it was prepared (the dialect's, which publishes its own with its timing). */
export function unobservedStatement(statement: StatementSync): StatementSync {
  quietStatements.add(statement);
  return statement;
}

function wrapStatement(name: 'all' | 'get' | 'run', rowsOf: (result: unknown) => number | undefined): void {
  const proto = StatementSync.prototype as unknown as Record<string, Method>;
  const original = proto[name]!;
  proto[name] = function observed(this: StatementSync, ...args: unknown[]) {
    if (!channels.dbQuery.hasSubscribers || quietStatements.has(this)) return original.apply(this, args);
    const start = performance.now();
    let result: unknown;
    try {
      result = original.apply(this, args);
    } catch (error) {
      publishQuery(this.sourceSQL, args, start, undefined, error, true);
      throw error;
    }
    publishQuery(this.sourceSQL, args, start, rowsOf(result), undefined, true);
    return result;
  };
}

/**
 * Publishes the queries an app runs with `node:sqlite` itself (`db.prepare(…).all/get/run`,
 * `db.exec`) on `trellis:db:query`, like those of its Kysely database: node:sqlite has no
 * diagnostics channels, so the prototypes are wrapped, once; with nobody subscribed a wrapper is
 * one check and the original call. Statements iterated lazily (`iterate`) are not timed.
 * Databases passed to `unobserved` (and statements prepared on them after this ran) are skipped.
 */
export function observeSqlite(): void {
  const dbProto = DatabaseSync.prototype as unknown as Record<PropertyKey, unknown> & { prepare: Method; exec: Method };
  if (dbProto[OBSERVED]) return;
  const prepare = dbProto.prepare;
  dbProto.prepare = function observedPrepare(this: DatabaseSync, ...args: unknown[]) {
    const statement = prepare.apply(this, args) as StatementSync;
    if (quiet.has(this)) quietStatements.add(statement);
    return statement;
  };
  const exec = dbProto.exec;
  dbProto.exec = function observedExec(this: DatabaseSync, ...args: unknown[]) {
    if (!channels.dbQuery.hasSubscribers || quiet.has(this) || typeof args[0] !== 'string') return exec.apply(this, args);
    const start = performance.now();
    try {
      const result = exec.apply(this, args);
      publishQuery(args[0], [], start, undefined, undefined, true);
      return result;
    } catch (error) {
      publishQuery(args[0], [], start, undefined, error, true);
      throw error;
    }
  };
  wrapStatement('all', (rows) => (Array.isArray(rows) ? rows.length : undefined));
  wrapStatement('get', (row) => (row === undefined ? 0 : 1));
  wrapStatement('run', (result) => {
    const changes = (result as { changes?: number | bigint } | null)?.changes;
    return changes === undefined ? undefined : Number(changes);
  });
  dbProto[OBSERVED] = true;
}
