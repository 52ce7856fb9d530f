import type { FastifyBaseLogger } from 'fastify';
import { buildProfile, type BuildOptions } from './build-profile.ts';
import { OncePerInterval } from '../logging/once-per-interval.ts';
import type { DataCollector } from './data-collector.ts';
import type { Profile } from './profile.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { ProfileRecord } from './storage/profile-record.ts';
import { TokenTakenError, type ProfileStorage } from './storage/profile-storage.ts';
import { recordOf } from './stored-profile.ts';
import type { TokenIssuer } from './token.ts';

/** The two levels the writer logs at: the app's pino logger, or the profiler thread's relay. */
export type WriterLog = Pick<FastifyBaseLogger, 'warn' | 'error'>;

export interface ProfileWriterOptions extends BuildOptions {
  /** The collectors that build a profile from a snapshot. */
  readonly collectors: readonly DataCollector[];
}

/** Longest run of queued work per turn of the event loop, so waiting requests are not held up. */
const SLICE_MS = 4;
const MAX_ATTEMPTS = 5;

/**
 * Builds profiles from snapshots and stores them. `enqueue` only appends to a queue; one
 * setImmediate per batch drains it in time slices of a few milliseconds, so a burst of responses
 * costs one scheduled callback and the building never sits between two requests' I/O. Store writes
 * are started without waiting for each other (the store batches them) and tracked for `idle()`;
 * a store error is logged, never surfaced to a request.
 */
export class ProfileWriter {
  readonly #storage: ProfileStorage;
  readonly #log: WriterLog;
  readonly #issuer: TokenIssuer;
  readonly #options: ProfileWriterOptions;
  #queue: (() => unknown)[] = [];
  #head = 0;
  #scheduled = false;
  #pending = 0;
  #waiters: (() => void)[] = [];
  #dropped = 0;
  readonly #failures = new OncePerInterval(10_000);

  constructor(storage: ProfileStorage, log: WriterLog, issuer: TokenIssuer, options: ProfileWriterOptions) {
    this.#storage = storage;
    this.#log = log;
    this.#issuer = issuer;
    this.#options = options;
  }

  /** Builds the snapshot's profile and stores it; settles (never rejects) once stored or logged. */
  store(snapshot: RequestSnapshot): Promise<void> {
    let built: Profile | Promise<Profile>;
    try {
      built = buildProfile(snapshot, this.#options.collectors, this.#options);
    } catch (error) {
      this.#fail(error);
      return Promise.resolve();
    }
    if (!(built instanceof Promise)) return this.write(recordOf(built));
    this.#pending++;
    return built.then(
      (profile) => this.write(recordOf(profile)),
      (error: unknown) => this.#fail(error),
    ).finally(() => this.#settle());
  }

  /** Runs `task` on a later turn of the event loop, tracked by `idle()`; errors are logged. */
  enqueue(task: () => unknown): void {
    this.#queue.push(task);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#drain);
    }
  }

  /**
   * Stores a record; on a token clash (another process wrote that token meanwhile) it is stored
   * under a fresh token. Settles (never rejects) once stored, or failed and logged.
   */
  write(record: ProfileRecord): Promise<void> {
    this.#pending++;
    return this.#attempt(record, 1).finally(() => this.#settle());
  }

  async idle(): Promise<void> {
    while (this.#head < this.#queue.length || this.#pending > 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  #attempt(record: ProfileRecord, attempt: number): Promise<void> {
    let written: Promise<void>;
    try {
      written = this.#storage.write(record);
    } catch (error) {
      written = Promise.reject(error);
    }
    return written.catch((error: unknown) => {
      if (error instanceof TokenTakenError && attempt < MAX_ATTEMPTS) {
        this.#log.warn({ channel: 'profiler', token: record.token }, `Profile token "${record.token}" was taken; storing under a new one.`);
        return this.#attempt({ ...record, token: this.#issuer.issue() }, attempt + 1);
      }
      this.#fail(error);
    });
  }

  readonly #drain = (): void => {
    this.#scheduled = false;
    const deadline = performance.now() + SLICE_MS;
    while (this.#head < this.#queue.length) {
      const task = this.#queue[this.#head++]!;
      this.#pending++;
      try {
        const result = task();
        if (result instanceof Promise) result.then(() => this.#settle(), (error: unknown) => (this.#fail(error), this.#settle()));
        else this.#settle();
      } catch (error) {
        this.#fail(error);
        this.#settle();
      }
      if (performance.now() >= deadline) break;
    }
    if (this.#head < this.#queue.length) {
      this.#scheduled = true;
      setImmediate(this.#drain);
    } else {
      this.#queue = [];
      this.#head = 0;
      this.#wake();
    }
  };

  /** Profiles that could not be stored since the writer started. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * A store that fails (Redis away, a full disk) fails every write alike: one line per interval
   * with the count, and the first error's stack only, not one stack per lost profile.
   */
  #fail(error: unknown): void {
    this.#dropped++;
    const message = error instanceof Error ? error.message : String(error);
    const line = (count: number) => `Profile store unavailable: ${count.toLocaleString('en-US')} ${count === 1 ? 'profile' : 'profiles'} dropped since the last report (${message}).`;
    // The losses of an outage's last interval are told when it ends, not by the next outage's first line.
    const count = this.#failures.hitOrLater((late) => this.#log.error({ channel: 'profiler', dropped: late, total: this.#dropped }, line(late)));
    if (count === null) return;
    if (this.#dropped === 1) this.#log.error({ err: error, channel: 'profiler', dropped: count }, line(count));
    else this.#log.error({ channel: 'profiler', dropped: count, total: this.#dropped }, line(count));
  }

  #settle(): void {
    this.#pending--;
    this.#wake();
  }

  #wake(): void {
    if (this.#pending > 0 || this.#head < this.#queue.length || this.#waiters.length === 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
