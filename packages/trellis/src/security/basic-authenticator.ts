import { HttpError } from '../kernel/http-error.ts';
import type { ErrorCode } from '../kernel/error-codes.ts';
import { authorizationCredentials } from './authorization-header.ts';
import type { AuthenticationRequest, Authenticator } from './authenticator.ts';
import { challenge } from './challenge.ts';
import type { User } from './user.ts';
import type { UserProvider } from './user-provider.ts';
import { verifyCredentials } from './verify-credentials.ts';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_CREDENTIALS = 2048;

/**
 * HTTP Basic (RFC 7617), meant for development (the security plugin enables it in debug only):
 * every request costs one scrypt verification.
 */
export class BasicAuthenticator implements Authenticator {
  readonly name = 'basic';
  readonly credentialHeaders = ['authorization'];
  readonly #users: UserProvider;
  readonly #realm: string;

  constructor(options: { users: UserProvider; realm: string }) {
    this.#users = options.users;
    this.#realm = options.realm;
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
    const user = await verifyCredentials(this.#users, decoded.slice(0, colon), decoded.slice(colon + 1));
    if (user === null) throw this.#fail('invalid_credentials');
    return user;
  }
}
