import type { ProfileRow } from './sqlite-profile-inserter.ts';

/**
 * Where the SQLite store sends its batches of rows: a writer thread (file databases) or the
 * calling thread (`:memory:`, which another thread cannot open). Contract: batches and purges are
 * applied in call order; `insert` resolves once its transaction is committed (so a reader on
 * another connection sees it), with a "token already stored" flag per row, and rejects when the
 * transaction failed (nothing written); `close` resolves after everything sent before it.
 */
export interface SqliteBatchSink {
  /** True when the sink groups inserts into transactions itself: callers need not wait to batch. */
  readonly batching: boolean;
  insert(rows: readonly ProfileRow[], cutoff: number, now: number): Promise<boolean[]>;
  purge(): Promise<void>;
  close(): Promise<void>;
}
