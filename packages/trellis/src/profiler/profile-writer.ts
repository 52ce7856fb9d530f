import type { FastifyBaseLogger } from 'fastify';
import type { Profile } from './profile.ts';
import { TokenTakenError, type ProfileStorage } from './storage/profile-storage.ts';
import { randomToken, type TokenIssuer } from './token.ts';

/**
 * Stores profiles off the response path: work is queued with setImmediate after the response was
 * sent, and a store error is logged, never surfaced to the request. `idle()` lets the profiler's
 * own pages (and tests) read their writes.
 */
export class ProfileWriter {
  readonly #storage: ProfileStorage;
  readonly #log: FastifyBaseLogger;
  readonly #issuer: TokenIssuer;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(storage: ProfileStorage, log: FastifyBaseLogger, issuer: TokenIssuer) {
    this.#storage = storage;
    this.#log = log;
    this.#issuer = issuer;
  }

  /** Runs `task` on a later turn of the event loop, tracked by `idle()`; errors are logged. */
  enqueue(task: () => Promise<void>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.#log.error({ err: error, channel: 'profiler' }, `The profiler could not store a profile: ${(error as Error)?.message}`));
    const tracked = run.finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  /**
   * Writes a profile; on a token clash (another process took it meanwhile) the profile is stored
   * under a fresh token, which is returned.
   */
  async write(profile: Profile): Promise<string> {
    let current = profile;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await this.#storage.write(current);
          return current.token;
        } catch (error) {
          if (!(error instanceof TokenTakenError) || attempt >= 4) throw error;
          this.#log.warn({ channel: 'profiler', token: current.token }, `Profile token "${current.token}" was taken; storing under a new one.`);
          current = { ...current, token: randomToken() };
        }
      }
    } finally {
      this.#issuer.release(profile.token);
    }
  }

  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }
}
