import type { FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http-error.ts';
import type { ErrorCode } from '../kernel/error-codes.ts';
import { authorizationCredentials } from './authorization-header.ts';
import type { AuthenticationRequest, Authenticator } from './authenticator.ts';
import { challenge } from './challenge.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { User } from './user.ts';
import type { UserProvider } from './user-provider.ts';
import { verifyCredentials } from './verify-credentials.ts';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_CREDENTIALS = 2048;

/**
 * HTTP Basic (RFC 7617), meant for development (the security plugin enables it in debug only):
 * every request costs one scrypt verification. With a throttle, it is the login form's: a client
 * or an account past its budget of failures gets 429 before any password is checked, and each
 * failure counts against both, so Basic is no way around POST /auth's limits.
 */
export class BasicAuthenticator implements Authenticator {
  readonly name = 'basic';
  readonly credentialHeaders = ['authorization'];
  readonly #users: UserProvider;
  readonly #realm: string;
  readonly #throttle: LoginThrottle | null;

  constructor(options: { users: UserProvider; realm: string; throttle?: LoginThrottle | null }) {
    this.#users = options.users;
    this.#realm = options.realm;
    this.#throttle = options.throttle ?? null;
  }

  #fail(code: ErrorCode): HttpError {
    // RFC 7617 §2.1: the challenge may announce UTF-8 as the credentials' charset.
    return HttpError.of(code, {}, { headers: { 'www-authenticate': challenge('Basic', { realm: this.#realm, charset: 'UTF-8' }) } });
  }

  async authenticate(request: AuthenticationRequest): Promise<User | null> {
    const encoded = authorizationCredentials(request, 'Basic');
    if (encoded === null) return null;
    if (encoded.length > MAX_CREDENTIALS || !BASE64.test(encoded)) throw this.#fail('malformed_basic_credentials');
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw this.#fail('malformed_basic_credentials');
    const account = decoded.slice(0, colon);
    // The firewall hands authenticators the Fastify request itself (its client address is settled).
    const throttled = this.#throttle === null ? null : (request as FastifyRequest);
    const checked = throttled ? await this.#throttle!.refuseIfOver(throttled, account) : null;
    try {
      const user = await verifyCredentials(this.#users, account, decoded.slice(colon + 1));
      if (user === null) {
        if (throttled) await this.#throttle!.failedEverywhere(throttled, account);
        throw this.#fail('invalid_credentials');
      }
      return user;
    } finally {
      checked?.();
    }
  }
}
