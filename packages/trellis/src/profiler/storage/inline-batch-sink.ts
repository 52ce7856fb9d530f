import type { SqliteBatchSink } from './sqlite-batch-sink.ts';
import type { ProfileRow, SqliteProfileInserter } from './sqlite-profile-inserter.ts';

/** Batches written on the calling thread, synchronously (`:memory:` databases, and tests). */
export class InlineBatchSink implements SqliteBatchSink {
  readonly batching = false;
  readonly #inserter: SqliteProfileInserter;

  constructor(inserter: SqliteProfileInserter) {
    this.#inserter = inserter;
  }

  async insert(rows: readonly ProfileRow[], cutoff: number, now: number): Promise<boolean[]> {
    return this.#inserter.insert(rows, cutoff, now);
  }

  async purge(): Promise<void> {
    this.#inserter.purge();
  }

  async close(): Promise<void> {}
}
