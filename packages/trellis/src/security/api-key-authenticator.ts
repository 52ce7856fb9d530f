import { HttpError } from '../kernel/http-error.ts';
import { apiKeyHash } from './api-key-hash.ts';
import type { AuthenticationRequest, Authenticator } from './authenticator.ts';
import { challenge } from './challenge.ts';
import type { User } from './user.ts';
import type { UserProvider } from './user-provider.ts';

const MAX_KEY_LENGTH = 256;

/**
 * API keys in the `X-API-Key` header. Only their sha256 is stored, and the lookup is by that hash,
 * so the comparison never runs over the secret itself.
 */
export class ApiKeyAuthenticator implements Authenticator {
  readonly name = 'api_key';
  readonly credentialHeaders = ['x-api-key'];
  readonly #users: UserProvider;
  readonly #realm: string;

  constructor(options: { users: UserProvider; realm: string }) {
    this.#users = options.users;
    this.#realm = options.realm;
  }

  async authenticate(request: AuthenticationRequest): Promise<User | null> {
    const key = request.headers['x-api-key'];
    if (key === undefined) return null;
    const text = Array.isArray(key) ? key.join(',') : key.trim();
    const user = text !== '' && text.length <= MAX_KEY_LENGTH ? await this.#users.findByApiKeyHash(apiKeyHash(text)) : null;
    if (user !== null) return user;
    throw HttpError.of('invalid_api_key', {}, { headers: { 'www-authenticate': challenge('ApiKey', { realm: this.#realm, header: 'X-API-Key' }) } });
  }
}
