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
 * Issues tokens unique in the store. 24 bits collide often enough to matter once thousands of
 * profiles are kept (1 in 1,700 at 10,000), so each candidate is checked against the tokens handed
 * out but not yet written and against the store, and redrawn on a hit.
 */
export class TokenIssuer {
  readonly #pending = new Set<string>();
  readonly #exists: (token: string) => Promise<boolean>;

  constructor(exists: (token: string) => Promise<boolean>) {
    this.#exists = exists;
  }

  async issue(maxAttempts = 16): Promise<string> {
    for (let i = 0; i < maxAttempts; i++) {
      const token = randomToken();
      if (this.#pending.has(token)) continue;
      this.#pending.add(token);
      let taken = true;
      try {
        taken = await this.#exists(token);
      } catch {
        // A store that cannot answer must not fail the request; the write reports the clash, if any.
        taken = false;
      }
      if (!taken) return token;
      this.#pending.delete(token);
    }
    throw new Error(`Could not find a free profile token in ${maxAttempts} attempts`);
  }

  /**
   * A token reserved without asking the store, for sub-requests, whose token is in no header: a
   * clash found when writing just draws another one.
   */
  issueNow(): string {
    for (;;) {
      const token = randomToken();
      if (!this.#pending.has(token)) {
        this.#pending.add(token);
        return token;
      }
    }
  }

  /** Checks a token from `issueNow()` against the store; returns it, or a fresh one when it is taken. */
  async confirm(token: string): Promise<string> {
    let taken = false;
    try {
      taken = await this.#exists(token);
    } catch {
      taken = false;
    }
    if (!taken) return token;
    this.#pending.delete(token);
    return this.issue();
  }

  /** Call once the profile is written (or dropped): the store now answers for the token. */
  release(token: string): void {
    this.#pending.delete(token);
  }
}
