import { randomBytes } from 'node:crypto';

const TOKEN = /^[0-9a-f]{6}$/;

let pool = Buffer.alloc(0);
let offset = 0;

/** A random profile token: 6 lowercase hex characters (24 bits from the CSPRNG, drawn in bulk). */
export function randomToken(): string {
  if (offset + 3 > pool.length) {
    pool = randomBytes(3 * 1024);
    offset = 0;
  }
  offset += 3;
  return pool.toString('hex', offset - 3, offset);
}

export function isToken(value: string): boolean {
  return TOKEN.test(value);
}

/**
 * Issues tokens unique in the store, synchronously. 24 bits collide often enough to matter once
 * thousands of profiles are kept (1 in 1,700 at 10,000), so every candidate is checked against the
 * tokens this process knows the store holds: those it found there when it opened (`seed`) and those
 * it issued since, the newest `capacity` of them (the store keeps no more). Asking the store on each
 * request cost a query per request; what the known set cannot see (another process writing to the
 * same store) is caught by the store's refusal of a taken token, and the writer then redraws.
 */
export class TokenIssuer {
  readonly #known = new Set<string>();
  /** Known tokens, oldest first, as a ring: the oldest is forgotten once `capacity` is reached. */
  readonly #ring: (string | undefined)[];
  #next = 0;

  constructor(capacity: number) {
    // Past 2^20 known tokens the 24-bit space is too crowded for redraws to stay cheap; the store's
    // uniqueness check still holds beyond that.
    this.#ring = new Array<string | undefined>(Math.max(1, Math.min(capacity, 1 << 20)));
  }

  /** Records tokens the store already holds, oldest first. */
  seed(tokens: Iterable<string>): void {
    for (const token of tokens) if (!this.#known.has(token)) this.#remember(token);
  }

  knows(token: string): boolean {
    return this.#known.has(token);
  }

  issue(maxAttempts = 64): string {
    for (let i = 0; i < maxAttempts; i++) {
      const token = randomToken();
      if (this.#known.has(token)) continue;
      this.#remember(token);
      return token;
    }
    throw new Error(`Could not find a free profile token in ${maxAttempts} attempts`);
  }

  #remember(token: string): void {
    const evicted = this.#ring[this.#next];
    if (evicted !== undefined) this.#known.delete(evicted);
    this.#ring[this.#next] = token;
    this.#known.add(token);
    this.#next = (this.#next + 1) % this.#ring.length;
  }
}
