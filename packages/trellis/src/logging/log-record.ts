/** One log record written while handling a request, as kept for the debug page and the profiler. */
export interface LogRecord {
  /** Epoch milliseconds. */
  readonly time: number;
  /** pino level name: trace, debug, info, warn, error, fatal. */
  readonly level: string;
  /** Monolog-style channel: the logger's `channel` binding, or "app". */
  readonly channel: string;
  readonly message: string;
  readonly context: Readonly<Record<string, unknown>>;
}
