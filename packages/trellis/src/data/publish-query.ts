import { publish } from '../observe/channels.ts';

/**
 * Publishes one finished query on `trellis:db:query` (the Database panel's source): SQL,
 * parameters, the time since `start` (performance.now()), rows when the driver says, and the
 * error's message when it failed. The event is only built when someone listens.
 */
export function publishQuery(sql: string, parameters: readonly unknown[], start: number, rows: number | undefined, error: unknown, foreign = false): void {
  const durationMs = performance.now() - start;
  publish('dbQuery', () => ({
    sql,
    parameters,
    durationMs,
    ...(rows !== undefined ? { rows } : {}),
    ...(error !== undefined ? { error: error instanceof Error ? error.message : String(error) } : {}),
    ...(foreign ? { foreign: true as const } : {}),
  }));
}
