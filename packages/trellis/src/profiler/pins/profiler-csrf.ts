import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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
  readonly #key: Buffer;

  constructor(secret: string | null) {
    this.#key = createHmac('sha256', 'trellis:profiler:csrf').update(secret ?? randomBytes(32)).digest();
  }

  /** The token of an action on a target (`pin` of a profile token, `purge` of nothing). */
  token(action: string, target = ''): string {
    return createHmac('sha256', this.#key).update(`${action}\n${target}`).digest('base64url');
  }

  /** Whether a submitted value is the token of that action and target (constant time). */
  verify(action: string, target: string, submitted: unknown): boolean {
    if (typeof submitted !== 'string') return false;
    const expected = Buffer.from(this.token(action, target));
    const given = Buffer.from(submitted);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
