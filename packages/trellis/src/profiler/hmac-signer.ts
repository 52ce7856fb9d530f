import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signs text with a key only the server knows, for one purpose (the purpose is in the key, so a
 * signature made for one never passes for another). The key is the app's secret when it has one,
 * so every process of the app signs alike (profiles in Redis), else random per process. Used by
 * the EXPLAIN links (explain/explain-signer.ts) and the profiler's form tokens (pins/profiler-csrf.ts).
 */
export class HmacSigner {
  readonly #key: Buffer;

  constructor(purpose: string, secret: string | null) {
    this.#key = createHmac('sha256', `trellis:profiler:${purpose}`).update(secret ?? randomBytes(32)).digest();
  }

  sign(text: string): string {
    return createHmac('sha256', this.#key).update(text).digest('base64url');
  }

  /** Whether `submitted` is the signature of `text` (constant time; anything but a string is not). */
  verify(text: string, submitted: unknown): boolean {
    if (typeof submitted !== 'string') return false;
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(submitted);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
