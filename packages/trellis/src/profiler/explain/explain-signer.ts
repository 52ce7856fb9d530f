import { HmacSigner } from '../hmac-signer.ts';

/**
 * Signs the EXPLAIN links the Database panel shows, so that only a link this profiler rendered
 * runs one: a page of another site open in the developer's browser cannot make the profiler run
 * EXPLAIN by guessing a URL (django-debug-toolbar's CVE-2021-30459 let a form post any SQL). The
 * key is the app's secret when it has one (every process of the app signs alike, profiles in
 * Redis), else random per process. The SQL is never taken from the request: the link names a
 * profile and the number of a query recorded in it, and the signature covers that query's text.
 */
export class ExplainSigner {
  readonly #signer: HmacSigner;

  constructor(secret: string | null) {
    this.#signer = new HmacSigner('explain', secret);
  }

  sign(token: string, query: number, sql: string): string {
    return this.#signer.sign(`${token}\n${query}\n${sql}`);
  }

  verify(token: string, query: number, sql: string, signature: string): boolean {
    return this.#signer.verify(`${token}\n${query}\n${sql}`, signature);
  }
}
