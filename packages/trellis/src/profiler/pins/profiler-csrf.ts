import { HmacSigner } from '../hmac-signer.ts';

/**
 * CSRF tokens of the profiler's forms (pin, unpin, purge): an HMAC of the action and its target
 * under a key only the server knows, put in the form the profiler renders. A page of another
 * site open in the developer's browser can make it POST to a loopback profiler (the gate lets
 * the developer's own address in) but cannot read a profiler page (same-origin policy; the
 * pages refuse framing), so it cannot know the token: OWASP's "HMAC based token" pattern,
 * without a session to bind to (the profiler has none). The key is the app's secret when it has
 * one (every process of the app accepts the forms of the others: profiles in Redis), else random
 * per process, as ExplainSigner's is.
 */
export class ProfilerCsrf {
  readonly #signer: HmacSigner;

  constructor(secret: string | null) {
    this.#signer = new HmacSigner('csrf', secret);
  }

  /** The token of an action on a target (`pin` of a profile token, `purge` of nothing). */
  token(action: string, target = ''): string {
    return this.#signer.sign(`${action}\n${target}`);
  }

  /** Whether a submitted value is the token of that action and target (constant time). */
  verify(action: string, target: string, submitted: unknown): boolean {
    return this.#signer.verify(`${action}\n${target}`, submitted);
  }
}
