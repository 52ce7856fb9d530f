import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ProfileQuery, ProfileSummary } from '../profile.ts';
import { InlineBatchSink } from './inline-batch-sink.ts';
import type { ProfileRecord } from './profile-record.ts';
import { TokenTakenError, type ProfileStorage, type PurgeOptions, type RetentionOptions } from './profile-storage.ts';
import type { SqliteBatchSink } from './sqlite-batch-sink.ts';
import { SqliteProfileInserter, type ProfileRow } from './sqlite-profile-inserter.ts';
import { openProfileDatabase } from './sqlite-profile-schema.ts';
import { ThreadBatchSink } from './thread-batch-sink.ts';

const SUMMARY_COLUMNS = 'p.token, p.parent, p.ip, p.method, p.url, p.time, p.status AS statusCode, p.duration AS durationMs, p.pinned';
const CANDIDATE_COLUMNS = 'p.seq, p.token, p.parent, p.ip, p.method, p.url, p.time, p.status, p.duration, p.pinned';

/** A row of SUMMARY_COLUMNS as a summary: `pinned` only when it is. */
function summaryOfRow<T extends ProfileSummary>(row: unknown): T {
  const { pinned, ...rest } = row as Record<string, unknown>;
  return (pinned ? { ...rest, pinned: true } : rest) as unknown as T;
}

interface Pending {
  readonly row: ProfileRow;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** `sqlite:<file>` → the file path (`:memory:` kept). */
export function sqlitePathOf(dsn: string): string {
  return dsn.replace(/^sqlite:/, '');
}

/**
 * The default store (`PROFILER_DSN=sqlite:var/profiler.db`): one row per profile with the indexed
 * summary columns and the record's data (JSON text), WAL journal. Writes are queued and committed
 * in one transaction per 10 ms window by a writer thread with its own connection (the calling
 * thread for `:memory:` or `writer: 'inline'`), so request handling never waits on the disk and
 * pays only for handing the record on; reads run on this thread's connection.
 *
 * Indexes: (time, seq, url), (method, time), (status, time), (ip, time) — each implicitly ends with
 * the rowid, so "newest first" walks an index backwards and stops at `limit`. Combinations no single
 * index answers (two exact filters, `mainOnly`, a URL substring) are checked on the newest `maxScan`
 * (10,000) candidates of the driving index: bounded work, at the price of not finding older
 * matches. A URL substring alone walks the time index, which carries the URL, so no row is read
 * until a match is found. (An FTS5 trigram index answered URL searches over the whole store before;
 * it cost more per request than the rest of the insert, for a search the default retention of
 * 10,000 profiles does not need.) Retention deletes by rowid and time ranges: index range deletes.
 */
export class SqliteProfileStorage implements ProfileStorage {
  readonly #db: DatabaseSync;
  readonly #retention: RetentionOptions;
  readonly #now: () => number;
  readonly #maxScan: number;
  readonly #batchWindowMs: number;
  readonly #statements = new Map<string, StatementSync>();
  readonly #path: string;
  readonly #writer: 'thread' | 'inline';
  /** Made on the first write: a store that is only read (the profiler's pages) starts no thread. */
  #sinkMade: SqliteBatchSink | null = null;
  readonly #inFlight = new Set<Promise<unknown>>();
  #pending: Pending[] = [];
  #scheduled = false;
  readonly #read: StatementSync;

  constructor(
    path: string,
    retention: RetentionOptions,
    options: { now?: () => number; maxScan?: number; batchWindowMs?: number; writer?: 'thread' | 'inline' } = {},
  ) {
    this.#db = openProfileDatabase(path, true);
    this.#retention = retention;
    this.#now = options.now ?? Date.now;
    this.#maxScan = options.maxScan ?? 10_000;
    this.#batchWindowMs = options.batchWindowMs ?? 10;
    this.#path = path;
    this.#writer = path === ':memory:' ? 'inline' : (options.writer ?? 'thread');
    this.#read = this.#db.prepare(`SELECT ${SUMMARY_COLUMNS}, p.data FROM profiles p WHERE p.token = ? AND (p.time >= ? OR p.pinned = 1)`);
  }

  get #sink(): SqliteBatchSink {
    this.#sinkMade ??=
      this.#writer === 'inline'
        ? new InlineBatchSink(new SqliteProfileInserter(this.#db, this.#retention.maxProfiles))
        : new ThreadBatchSink(this.#path, this.#retention.maxProfiles, this.#batchWindowMs);
    return this.#sinkMade;
  }

  write(record: ProfileRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      const row: ProfileRow = [record.token, record.parent, record.ip, record.method, record.url, record.time, record.statusCode, record.durationMs, record.data];
      this.#pending.push({ row, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // A short window gathers many profiles into one transaction under load; a sink that
        // batches itself gets everything written in this turn at its end, so serialised profiles
        // do not linger here.
        if (this.#sink.batching) queueMicrotask(() => this.#flush());
        else setTimeout(() => this.#flush(), this.#batchWindowMs);
      }
    });
  }

  async read(token: string): Promise<ProfileRecord | null> {
    const row = this.#read.get(token, this.#cutoff());
    return row ? summaryOfRow<ProfileRecord>(row) : null;
  }

  // read and find do not flush queued writes: the contract promises visibility once `write`
  // resolves.
  async find(query: ProfileQuery): Promise<ProfileSummary[]> {
    if (query.pinned) return this.#findPinned(query, null);
    const { sql, params } = this.#findSql(query);
    const found = this.#statement(sql).all(...params).map((row) => summaryOfRow(row));
    // Pinned profiles older than the TTL come after every other (the rest are all younger).
    return found.length < query.limit ? [...found, ...this.#findPinned({ ...query, limit: query.limit - found.length }, this.#cutoff())] : found;
  }

  /**
   * Pinned profiles matching a query, newest first, from their partial index (pinned ones are
   * few: they are checked one by one); with `olderThan`, only those older than it.
   */
  #findPinned(query: ProfileQuery, olderThan: number | null): ProfileSummary[] {
    const conds: [string, (string | number)[]][] = [['p.pinned = 1', []]];
    if (olderThan !== null) conds.push(['p.time < ?', [olderThan]]);
    if (query.start !== undefined) conds.push(['p.time >= ?', [query.start]]);
    if (query.end !== undefined) conds.push(['p.time < ?', [query.end]]);
    if (query.token !== undefined) conds.push(['p.token = ?', [query.token]]);
    if (query.ip !== undefined) conds.push(['p.ip = ?', [query.ip]]);
    if (query.statusCode !== undefined) conds.push(['p.status = ?', [query.statusCode]]);
    if (query.statusClass !== undefined) conds.push(['p.status BETWEEN ? AND ?', [query.statusClass * 100, query.statusClass * 100 + 99]]);
    if (query.method !== undefined) conds.push(['p.method = ?', [query.method]]);
    if (query.mainOnly) conds.push(['p.parent IS NULL', []]);
    if (query.url !== undefined) conds.push(['instr(p.url, ?) > 0', [query.url]]);
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM profiles p INDEXED BY profiles_pinned WHERE ${conds.map((c) => c[0]).join(' AND ')} ORDER BY p.time DESC, p.seq DESC LIMIT ?`;
    return this.#statement(sql).all(...conds.flatMap((c) => c[1]), query.limit).map((row) => summaryOfRow(row));
  }

  /** SQLite's plan for a query, so tests and benchmarks can check that no full scan happens. */
  explain(query: ProfileQuery): string[] {
    const { sql, params } = this.#findSql(query);
    return this.#db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((r) => String((r as { detail: unknown }).detail));
  }

  async tokens(limit: number): Promise<string[]> {
    await this.#settled();
    const rows = this.#db.prepare('SELECT token FROM (SELECT seq, token FROM profiles ORDER BY seq DESC LIMIT ?) ORDER BY seq').all(limit);
    return rows.map((r) => String((r as { token: unknown }).token));
  }

  async pin(token: string, pinned: boolean): Promise<boolean> {
    await this.#settled();
    if (pinned) return this.#db.prepare('UPDATE profiles SET pinned = 1 WHERE token = ? AND (time >= ? OR pinned = 1)').run(token, this.#cutoff()).changes > 0;
    const row = this.#db.prepare('SELECT seq, pinned FROM profiles WHERE token = ? AND (time >= ? OR pinned = 1)').get(token, this.#cutoff()) as { seq: number; pinned: number } | undefined;
    if (!row) return false;
    if (row.pinned === 0) return true;
    this.#db.prepare('UPDATE profiles SET pinned = 0 WHERE seq = ?').run(row.seq);
    // Back under retention: the writer trims by rowid ranges it has passed already, so a profile
    // with maxProfiles newer ones goes now (once per click: a walk of at most maxProfiles rowids).
    const newer = this.#db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM profiles WHERE seq > ? AND pinned = 0 LIMIT ?)').get(row.seq, this.#retention.maxProfiles) as { n: number };
    if (newer.n >= this.#retention.maxProfiles) this.#db.prepare('DELETE FROM profiles WHERE seq = ? AND pinned = 0').run(row.seq);
    return true;
  }

  async purge(options: PurgeOptions = {}): Promise<void> {
    await this.#settled();
    // Pinned rows are few and scattered: the writer's range deletes do not fit; one DELETE does
    // (the writer's trimming starts over if the top rowid went down, sqlite-profile-inserter.ts).
    if (options.keepPinned) this.#db.prepare('DELETE FROM profiles WHERE pinned = 0').run();
    else await this.#sink.purge();
  }

  async close(): Promise<void> {
    await this.#settled();
    await this.#sinkMade?.close();
    if (this.#db.isOpen) this.#db.close();
  }

  /** Sends what is queued and waits for every batch sent so far. */
  async #settled(): Promise<void> {
    this.#flush();
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #findSql(query: ProfileQuery): { sql: string; params: (string | number)[] } {
    type Cond = readonly [string, readonly (string | number)[]];
    const time: Cond[] = [['p.time >= ?', [this.#cutoff()]]];
    if (query.start !== undefined) time.push(['p.time >= ?', [query.start]]);
    if (query.end !== undefined) time.push(['p.time < ?', [query.end]]);
    // Exact filters, most selective first: the first one drives the index walk.
    const exact: Cond[] = [];
    if (query.token !== undefined) exact.push(['p.token = ?', [query.token]]);
    if (query.ip !== undefined) exact.push(['p.ip = ?', [query.ip]]);
    if (query.statusCode !== undefined) exact.push(['p.status = ?', [query.statusCode]]);
    if (query.method !== undefined) exact.push(['p.method = ?', [query.method]]);
    const rest: Cond[] = query.mainOnly ? [['p.parent IS NULL', []]] : [];
    if (query.statusClass !== undefined) rest.push(['p.status BETWEEN ? AND ?', [query.statusClass * 100, query.statusClass * 100 + 99]]);
    const where = (conds: readonly Cond[]) => ({ sql: conds.map((c) => c[0]).join(' AND ') || '1', params: conds.flatMap((c) => c[1]) });
    const order = 'ORDER BY p.time DESC, p.seq DESC';

    if (query.url !== undefined && exact.length === 0 && rest.length === 0) {
      // A URL substring alone: the newest maxScan entries of the time index, which holds the URL,
      // are tested without reading their rows; only the matches are joined.
      const window = where(time);
      return {
        sql: `SELECT ${SUMMARY_COLUMNS} FROM (SELECT seq, time FROM (SELECT seq, time, url FROM profiles p INDEXED BY profiles_time_url WHERE ${window.sql} ${order} LIMIT ?)
          WHERE instr(url, ?) > 0 LIMIT ?) m JOIN profiles p ON p.seq = m.seq ${order}`,
        params: [...window.params, this.#maxScan, query.url, query.limit],
      };
    }
    if (query.url !== undefined) rest.push(['instr(p.url, ?) > 0', [query.url]]);
    const [driving, ...others] = exact;
    const residual = [...others, ...rest];
    if (residual.length === 0) {
      const all = where([...time, ...(driving ? [driving] : [])]);
      return { sql: `SELECT ${SUMMARY_COLUMNS} FROM profiles p WHERE ${all.sql} ${order} LIMIT ?`, params: [...all.params, query.limit] };
    }
    // Filters no single index answers are checked on a bounded walk of the driving index: at most
    // maxScan candidates, newest first, so a combination that matches nothing is never a full scan.
    const inner = where([...time, ...(driving ? [driving] : [])]);
    const outer = where(residual);
    return {
      sql: `SELECT ${SUMMARY_COLUMNS} FROM (SELECT ${CANDIDATE_COLUMNS} FROM profiles p WHERE ${inner.sql} ${order} LIMIT ?) p WHERE ${outer.sql} ${order} LIMIT ?`,
      params: [...inner.params, this.#maxScan, ...outer.params, query.limit],
    };
  }

  /** Prepared once per query shape (there are a few dozen at most): `find` runs on every request. */
  #statement(sql: string): StatementSync {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      if (this.#statements.size > 256) this.#statements.clear();
      stmt = this.#db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  #cutoff(): number {
    return this.#now() - this.#retention.ttlSeconds * 1000;
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    if (batch.length === 0 || !this.#db.isOpen) return;
    this.#pending = [];
    const now = this.#now();
    const sent = this.#sink.insert(
      batch.map((p) => p.row),
      now - this.#retention.ttlSeconds * 1000,
      now,
    ).then(
      (taken) => batch.forEach((item, i) => (taken[i] ? item.reject(new TokenTakenError(item.row[0])) : item.resolve())),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    );
    this.#inFlight.add(sent);
    void sent.finally(() => this.#inFlight.delete(sent));
  }
}
