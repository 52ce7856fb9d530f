import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** A profile record as one row: token, parent, ip, method, url, time, status, duration, data. */
export type ProfileRow = readonly [string, string | null, string, string, string, number, number, number, string];

/**
 * Inserts batches of profile rows in one transaction each and applies retention, on whichever
 * thread owns the connection (the writer thread, or the caller's for `:memory:`).
 */
export class SqliteProfileInserter {
  readonly #db: DatabaseSync;
  readonly #maxProfiles: number;
  readonly #insert: StatementSync;
  readonly #top: StatementSync;
  readonly #deleteBelow: StatementSync;
  readonly #deleteBefore: StatementSync;
  readonly #pinnedAbove: StatementSync;
  /** Rowids at or below this one are already gone, so trimming deletes only a fresh range. */
  #trimmedTo = 0;
  /** When expired profiles were last deleted: at most once a second, not on every batch. */
  #expiredAt = 0;

  constructor(db: DatabaseSync, maxProfiles: number) {
    this.#db = db;
    this.#maxProfiles = maxProfiles;
    this.#insert = db.prepare('INSERT OR IGNORE INTO profiles (token, parent, ip, method, url, time, status, duration, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.#top = db.prepare('SELECT coalesce(max(seq), 0) AS top FROM profiles');
    this.#deleteBelow = db.prepare('DELETE FROM profiles WHERE seq > ? AND seq <= ? AND pinned = 0');
    this.#deleteBefore = db.prepare('DELETE FROM profiles WHERE time < ? AND pinned = 0');
    this.#pinnedAbove = db.prepare('SELECT count(*) AS n FROM profiles INDEXED BY profiles_pinned WHERE pinned = 1 AND seq > ?');
  }

  /**
   * Inserts the rows in order in one transaction; returns, per row, whether its token was already
   * stored (the row is then skipped). Throws, with nothing written, when the transaction fails.
   */
  insert(rows: readonly ProfileRow[], cutoff: number, now: number): boolean[] {
    const taken: boolean[] = [];
    try {
      this.#db.exec('BEGIN');
      for (const row of rows) taken.push(this.#insert.run(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]).changes === 0);
      this.#enforceRetention(cutoff, now);
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
    return taken;
  }

  purge(): void {
    this.#db.exec('DELETE FROM profiles');
    this.#trimmedTo = 0;
  }

  #enforceRetention(cutoff: number, now: number): void {
    // Rowids are handed out in write order, so the newest `maxProfiles` are the top rowid range.
    const { top } = this.#top.get() as { top: number };
    // A purge that kept pinned profiles may have lowered the top rowid: rowids are then handed
    // out again below what was trimmed, and trimming starts over from the bottom.
    if (top < this.#trimmedTo) this.#trimmedTo = 0;
    // Pinned profiles do not count: the range kept grows by those among it (a few index entries).
    let keepAbove = top - this.#maxProfiles;
    for (let i = 0; i < 4; i++) {
      const { n } = this.#pinnedAbove.get(keepAbove) as { n: number };
      if (top - this.#maxProfiles - n === keepAbove) break;
      keepAbove = top - this.#maxProfiles - n;
    }
    if (keepAbove > this.#trimmedTo) {
      this.#deleteBelow.run(this.#trimmedTo, keepAbove);
      this.#trimmedTo = keepAbove;
    }
    // Expired rows are invisible to read and find already; deleting them is housekeeping.
    if (now - this.#expiredAt < 1000) return;
    this.#expiredAt = now;
    this.#deleteBefore.run(cutoff);
  }
}
