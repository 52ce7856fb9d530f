import type pgModule from 'pg';
import { channels } from '../observe/channels.ts';
import { publishQuery } from './publish-query.ts';
import { isOwnPgClient } from './own-pg-clients.ts';

const OBSERVED = Symbol.for('trellis.pg.observed');

type Query = (...args: unknown[]) => unknown;
interface PgResult {
  readonly rowCount?: number | null;
}

/** Rows a result returned or changed: `rowCount` (INSERT/UPDATE/DELETE and SELECT), summed over a multi-statement result. */
function rowsOf(result: unknown): number | undefined {
  if (Array.isArray(result)) {
    const counts = result.map(rowsOf).filter((n): n is number => n !== undefined);
    return counts.length > 0 ? counts.reduce((a, b) => a + b, 0) : undefined;
  }
  const r = result as PgResult | null;
  if (r === null || typeof r !== 'object') return undefined;
  // null: a command without a count (CREATE, SET), not zero rows.
  return typeof r.rowCount === 'number' ? r.rowCount : undefined;
}

/**
 * Publishes every query a `pg` Client runs on `trellis:db:query` (SQL, parameters, duration,
 * rows, error): Kysely's, and any `pool.query()` or `client.query()` of the app's own, since they
 * share the one `pg` module. pg has no diagnostics channels of its own, so its `Client.prototype.query`
 * is wrapped once; with nobody subscribed the wrapper is one check and the original call.
 *
 * Covered: `query(text[, values][, callback])` and `query({ text, values }[, callback])`, promise
 * or callback. Not timed: submittables (pg-cursor, pg-query-stream), whose rows arrive later.
 * An app that loads its own copy of `pg` (another version) calls this with that copy.
 */
export function observePg(pg: typeof pgModule): void {
  const proto = pg.Client.prototype as unknown as Record<PropertyKey, unknown> & { query: Query };
  if (proto[OBSERVED]) return;
  const query = proto.query;
  proto.query = function observedQuery(this: unknown, ...args: unknown[]) {
    if (!channels.dbQuery.hasSubscribers) return query.apply(this, args);
    const [first, second] = args;
    const config = typeof first === 'object' && first !== null ? (first as { text?: unknown; values?: unknown; submit?: unknown }) : null;
    const sql = typeof first === 'string' ? first : config?.text;
    if (typeof sql !== 'string' || typeof config?.submit === 'function') return query.apply(this, args);
    const parameters = Array.isArray(second) ? second : Array.isArray(config?.values) ? (config.values as unknown[]) : [];
    const start = performance.now();
    const foreign = !isOwnPgClient(this);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: unknown, result: unknown) => void;
      args[last] = (error: unknown, result: unknown) => {
        publishQuery(sql, parameters, start, error ? undefined : rowsOf(result), error ?? undefined, foreign);
        callback(error, result);
      };
      return query.apply(this, args);
    }
    const pending = query.apply(this, args) as Promise<unknown>;
    // The caller's promise is returned untouched; this branch only watches it.
    pending.then(
      (result) => publishQuery(sql, parameters, start, rowsOf(result), undefined, foreign),
      (error: unknown) => publishQuery(sql, parameters, start, undefined, error, foreign),
    );
    return pending;
  };
  proto[OBSERVED] = true;
}
