import type { JwtKeys } from './jwt-keys.ts';
import type { User } from './user.ts';

export interface JwtIssuerOptions {
  readonly keys: JwtKeys;
  readonly issuer: string;
  readonly audience: string;
  readonly ttlSeconds: number;
}

/** Signs access tokens: `sub` is the user id, with `iss`, `aud`, `iat`, `nbf` and `exp`. */
export class JwtIssuer {
  readonly #options: JwtIssuerOptions;

  constructor(options: JwtIssuerOptions) {
    if (options.keys.signKey === null) throw new Error('JwtIssuer needs a signing key (JWT_SECRET or JWT_PRIVATE_KEY)');
    this.#options = options;
  }

  async issue(user: User, now: number = Math.floor(Date.now() / 1000)): Promise<string> {
    const { keys, issuer, audience, ttlSeconds } = this.#options;
    // Loaded with the first login, not at startup.
    const { SignJWT } = await import('jose');
    return new SignJWT({ username: user.identifier, roles: [...user.roles] })
      .setProtectedHeader({ alg: keys.algorithm, typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(keys.signKey!);
  }
}
