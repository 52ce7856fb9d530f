import { randomBytes } from 'node:crypto';

const TOKEN = /^[0-9a-f]{6}$/;
/** Tokens are 24 bits. */
const SPACE = 1 << 24;
/** How far back `forget` looks: requests in flight at once, with room to spare. */
const FORGET_WINDOW = 4096;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

let pool = Buffer.alloc(0);
let offset = 0;

/** A random 24-bit number from the CSPRNG, drawn in bulk. */
function randomValue(): number {
  if (offset + 3 > pool.length) {
    pool = randomBytes(3 * 1024);
    offset = 0;
  }
  offset += 3;
  return (pool[offset - 3]! << 16) | (pool[offset - 2]! << 8) | pool[offset - 1]!;
}

function tokenOf(value: number): string {
  return HEX[value >>> 16]! + HEX[(value >>> 8) & 255]! + HEX[value & 255]!;
}

/** A random profile token: 6 lowercase hex characters (24 bits from the CSPRNG). */
export function randomToken(): string {
  return tokenOf(randomValue());
}

export function isToken(value: string): boolean {
  return TOKEN.test(value);
}

/**
 * How many issued tokens the request thread's issuer remembers for a store keeping `maxProfiles`:
 * every request is given a token before anyone knows whether it will be recorded, and requests
 * not recorded (the store away, the backlog full; those a sample leaves out are given back, see
 * `forget`) pushed the stored tokens out of a memory of `maxProfiles`: after 30,000 unrecorded
 * requests, new tokens clashed with stored ones,
 * and the writer stored those profiles under fresh tokens while their responses had gone out with
 * the old ones. Eight times the store's size (at most 2^20: redraws stay rare, 1 in 16 at most).
 */
export function issuedTokensKnown(maxProfiles: number): number {
  return Math.min(1 << 20, 8 * maxProfiles);
}

/**
 * Issues tokens unique in the store, synchronously. 24 bits collide often enough to matter once
 * thousands of profiles are kept (1 in 1,700 at 10,000), so every candidate is checked against the
 * tokens this process knows the store holds: those it found there when it opened (`seed`) and those
 * it issued since, the newest `capacity` of them (the store keeps no more). Asking the store on each
 * request cost a query per request; what the known set cannot see (another process writing to the
 * same store) is caught by the store's refusal of a taken token, and the writer then redraws.
 *
 * The known tokens are a bit per possible token (2 MiB) and a ring of numbers: a Set of 10,000
 * strings cost ~1.9 µs per request to add to and evict from, its table too large for the caches;
 * a bit is set and cleared without allocating.
 */
export class TokenIssuer {
  readonly #known = new Uint8Array(SPACE / 8);
  /** The high bits every issued token carries (`partition`), and the random bits below them. */
  #high = 0;
  #low = SPACE - 1;
  /** Known tokens, oldest first, as a ring: the oldest is forgotten once `capacity` is reached. */
  readonly #ring: Int32Array;
  #next = 0;

  constructor(capacity: number) {
    // Past 2^20 known tokens the 24-bit space is too crowded for redraws to stay cheap; the store's
    // uniqueness check still holds beyond that.
    this.#ring = new Int32Array(Math.max(1, Math.min(capacity, 1 << 20))).fill(-1);
  }

  /** Records tokens the store already holds, oldest first. */
  seed(tokens: Iterable<string>): void {
    for (const token of tokens) {
      if (!isToken(token)) continue;
      const value = parseInt(token, 16);
      if (!this.#has(value)) this.#remember(value);
    }
  }

  knows(token: string): boolean {
    return isToken(token) && this.#has(parseInt(token, 16));
  }

  /**
   * Issues only tokens whose top `bits` bits are `slot` (a number in [0, 2^bits)), or any token
   * again with `null`. Processes writing to one store hold different slots (storage's
   * `claimIssuerSlot`), so their tokens cannot clash, where each knew only its own and those stored
   * when it started.
   */
  partition(slot: number | null, bits: number): void {
    if (slot === null) {
      this.#high = 0;
      this.#low = SPACE - 1;
      return;
    }
    this.#high = (slot << (24 - bits)) >>> 0;
    this.#low = (1 << (24 - bits)) - 1;
  }

  issue(maxAttempts = 64): string {
    for (let i = 0; i < maxAttempts; i++) {
      const value = this.#high | (randomValue() & this.#low);
      if (this.#has(value)) continue;
      this.#remember(value);
      return tokenOf(value);
    }
    throw new Error(`Could not find a free profile token in ${maxAttempts} attempts`);
  }

  /**
   * Gives back a token issued for a request that will not be recorded (not kept by the sampling or
   * `PROFILER_ONLY`), so that it does not push a stored token out of what this issuer knows. Looked
   * for among the newest FORGET_WINDOW issued (such a token is given back as its response is sent).
   */
  forget(token: string): void {
    if (!isToken(token)) return;
    const value = parseInt(token, 16);
    const size = this.#ring.length;
    for (let i = 1; i <= Math.min(FORGET_WINDOW, size); i++) {
      const slot = (this.#next - i + size) % size;
      if (this.#ring[slot] !== value) continue;
      this.#known[value >>> 3]! &= ~(1 << (value & 7));
      // The newest entry fills the hole and the ring steps back: a token given back takes no
      // place, so the stored ones are not pushed out by it.
      const newest = (this.#next - 1 + size) % size;
      this.#ring[slot] = this.#ring[newest]!;
      this.#ring[newest] = -1;
      this.#next = newest;
      return;
    }
  }

  #has(value: number): boolean {
    return (this.#known[value >>> 3]! & (1 << (value & 7))) !== 0;
  }

  #remember(value: number): void {
    const evicted = this.#ring[this.#next]!;
    if (evicted >= 0) this.#known[evicted >>> 3]! &= ~(1 << (evicted & 7));
    this.#ring[this.#next] = value;
    this.#known[value >>> 3]! |= 1 << (value & 7);
    this.#next = (this.#next + 1) % this.#ring.length;
  }
}
