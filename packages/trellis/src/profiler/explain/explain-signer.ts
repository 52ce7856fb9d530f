import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signs the EXPLAIN links the Database panel shows, so that only a link this profiler rendered
 * runs one: a page of another site open in the developer's browser cannot make the profiler run
 * EXPLAIN by guessing a URL (django-debug-toolbar's CVE-2021-30459 let a form post any SQL). The
 * key is the app's secret when it has one (every process of the app signs alike, profiles in
 * Redis), else random per process. The SQL is never taken from the request: the link names a
 * profile and the number of a query recorded in it, and the signature covers that query's text.
 */
export class ExplainSigner {
  readonly #key: Buffer;

  constructor(secret: string | null) {
    this.#key = createHmac('sha256', 'trellis:profiler:explain').update(secret ?? randomBytes(32)).digest();
  }

  sign(token: string, query: number, sql: string): string {
    return createHmac('sha256', this.#key).update(`${token}\n${query}\n${sql}`).digest('base64url');
  }

  verify(token: string, query: number, sql: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(token, query, sql));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
