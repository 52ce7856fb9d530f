import type { FastifyBaseLogger } from 'fastify';
import type { Profile } from './profile.ts';
import { TokenTakenError, type ProfileStorage } from './storage/profile-storage.ts';
import type { TokenIssuer } from './token.ts';

/** Longest run of queued work per turn of the event loop, so waiting requests are not held up. */
const SLICE_MS = 4;
const MAX_ATTEMPTS = 5;

/**
 * Builds and stores profiles off the response path. `enqueue` only appends to a queue; one
 * setImmediate per batch drains it in time slices of a few milliseconds, so a burst of responses
 * costs one scheduled callback and the building never sits between two requests' I/O. Store writes
 * are started without waiting for each other (the store batches them) and tracked for `idle()`;
 * a store error is logged, never surfaced to a request.
 */
export class ProfileWriter {
  readonly #storage: ProfileStorage;
  readonly #log: FastifyBaseLogger;
  readonly #issuer: TokenIssuer;
  #queue: (() => unknown)[] = [];
  #head = 0;
  #scheduled = false;
  #pending = 0;
  #waiters: (() => void)[] = [];

  constructor(storage: ProfileStorage, log: FastifyBaseLogger, issuer: TokenIssuer) {
    this.#storage = storage;
    this.#log = log;
    this.#issuer = issuer;
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
   * Starts storing a profile; on a token clash (another process wrote that token meanwhile) it is
   * stored under a fresh token. Returns at once: completion is what `idle()` waits for.
   */
  write(profile: Profile): void {
    this.#pending++;
    this.#attempt(profile, 1);
  }

  async idle(): Promise<void> {
    while (this.#head < this.#queue.length || this.#pending > 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  #attempt(profile: Profile, attempt: number): void {
    let written: Promise<void>;
    try {
      written = this.#storage.write(profile);
    } catch (error) {
      written = Promise.reject(error);
    }
    written.then(
      () => this.#settle(),
      (error: unknown) => {
        if (error instanceof TokenTakenError && attempt < MAX_ATTEMPTS) {
          this.#log.warn({ channel: 'profiler', token: profile.token }, `Profile token "${profile.token}" was taken; storing under a new one.`);
          return this.#attempt({ ...profile, token: this.#issuer.issue() }, attempt + 1);
        }
        this.#fail(error);
        this.#settle();
      },
    );
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

  #fail(error: unknown): void {
    this.#log.error({ err: error, channel: 'profiler' }, `The profiler could not store a profile: ${(error as Error)?.message}`);
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
