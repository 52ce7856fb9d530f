import { publish, type DbQueryEvent } from '../observe/channels.ts';

/**
 * Publishes one finished query on `trellis:db:query` (the Database panel's source): SQL,
 * parameters, the time since `start` (performance.now()), rows when the driver says, and the
 * error's message when it failed. The event is only built when someone listens.
 */
export function publishQuery(sql: string, parameters: readonly unknown[], start: number, rows: number | undefined, error: unknown, foreign = false): void {
  const durationMs = performance.now() - start;
  publish('dbQuery', () => {
    // Optional fields are assigned when there, not spread from objects made for them: this runs
    // for every query of every profiled request.
    const event: Writable<DbQueryEvent> = { sql, parameters, durationMs, startedAt: start };
    if (rows !== undefined) event.rows = rows;
    if (error !== undefined) event.error = error instanceof Error ? error.message : String(error);
    if (foreign) event.foreign = true;
    return event;
  });
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
