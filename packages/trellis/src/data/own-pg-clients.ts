/**
 * The `pg` clients of the pools `openDatabase` made: their queries are the app's database's. Any
 * other client (an app's own `new pg.Client()`) is observed too (observe-pg.ts), but its queries
 * are marked foreign, for the profiler's EXPLAIN runs on the app's database only.
 */
const own = new WeakSet<object>();

export function markOwnPgClient(client: object): void {
  own.add(client);
}

export function isOwnPgClient(client: unknown): boolean {
  return typeof client === 'object' && client !== null && own.has(client);
}
