import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

type SlotClient = Pick<Redis, 'set' | 'incr' | 'eval'>;

/** How long a claimed slot lasts without renewal, and how often it is renewed. */
const LEASE_SECONDS = 30;
const RENEW_MS = 10_000;

/** Extends the lease only if the slot is still this process's (a pause past the lease may have lost it). */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * A slot of the profile token space held by this process in a store several processes share: key
 * `<prefix>issuer-slot:<n>`, claimed with SET NX under a lease renewed while the process lives, so
 * that a process that died frees its slot within the lease. Claims start from a shared counter,
 * so processes starting together try different slots first. With every slot held (more processes
 * than slots) none is claimed, and tokens are drawn from the whole space as before.
 */
export class RedisIssuerSlot {
  readonly #client: SlotClient;
  readonly #prefix: string;
  readonly #slots: number;
  readonly #onChange: (index: number | null) => void;
  readonly #id = randomUUID();
  readonly #renewMs: number;
  #index: number | null = null;
  /** The slot last held, tried first when claiming again. */
  #last: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(client: SlotClient, prefix: string, slots: number, onChange: (index: number | null) => void, renewMs = RENEW_MS) {
    this.#client = client;
    this.#renewMs = renewMs;
    this.#prefix = prefix;
    this.#slots = slots;
    this.#onChange = onChange;
  }

  /** The slot held, or null. */
  get index(): number | null {
    return this.#index;
  }

  /** Claims a free slot and keeps it renewed; tells `onChange` which. */
  async claim(): Promise<number | null> {
    // Renewals start now, whatever this claim's fate: a store away at startup (the claim throws)
    // is claimed from when it is back, where nothing tried again and the process drew from every
    // slot for the rest of its life.
    this.#keepRenewing();
    // The slot held before first (a lease run out while the store was away, nobody else took it):
    // the tokens issued from it stay known.
    const start = this.#last ?? (await this.#client.incr(`${this.#prefix}issuer-claims`)) % this.#slots;
    for (let i = 0; i < this.#slots && !this.#closed; i++) {
      const index = (start + i) % this.#slots;
      if ((await this.#client.set(this.#key(index), this.#id, 'EX', LEASE_SECONDS, 'NX')) === 'OK') {
        this.#hold(index);
        return index;
      }
    }
    this.#hold(null);
    return null;
  }

  /** Gives the slot back. */
  async release(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    const index = this.#index;
    this.#index = null;
    if (index !== null) await this.#client.eval(RELEASE, 1, this.#key(index), this.#id).catch(() => undefined);
  }

  #key(index: number): string {
    return `${this.#prefix}issuer-slot:${index}`;
  }

  #hold(index: number | null): void {
    if (this.#closed) return;
    this.#index = index;
    if (index !== null) this.#last = index;
    this.#onChange(index);
    this.#keepRenewing();
  }

  #keepRenewing(): void {
    if (this.#timer !== null || this.#closed) return;
    this.#timer = setInterval(() => void this.#renew(), this.#renewMs);
    this.#timer.unref();
  }

  /** Renews the lease; a slot lost (or none held) is claimed again. A store away is tried again next time. */
  async #renew(): Promise<void> {
    try {
      const index = this.#index;
      if (index !== null && Number(await this.#client.eval(RENEW, 1, this.#key(index), this.#id, LEASE_SECONDS)) === 1) return;
      if (this.#closed) return;
      this.#index = null;
      this.#onChange(null);
      await this.claim();
    } catch {
      // Redis away: the slot's lease may run out meanwhile; renewed or claimed again when it is back.
    }
  }
}
