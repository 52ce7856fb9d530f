import type * as Jose from 'jose';

/** jose, loaded with the first bearer token (startup time: most starts see none for a while). */
let jose: Promise<typeof Jose> | null = null;
const loadJose = () => (jose ??= import('jose'));
import { HttpError } from '../kernel/http-error.ts';
import { errorCodes, type ErrorCode } from '../kernel/error-codes.ts';
import { authorizationCredentials } from './authorization-header.ts';
import type { AuthenticationRequest, Authenticator } from './authenticator.ts';
import { bearerChallenge } from './challenge.ts';
import type { JwtKeys } from './jwt-keys.ts';
import type { User } from './user.ts';
import type { UserProvider } from './user-provider.ts';

export interface JwtAuthenticatorOptions {
  readonly keys: JwtKeys;
  readonly issuer: string;
  readonly audience: string;
  readonly users: UserProvider;
  readonly realm: string;
  /** Longer tokens are refused before any parsing; default 8 KiB. */
  readonly maxTokenBytes?: number;
}

const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** A client-supplied `alg` is echoed in the message only when it looks like an algorithm name. */
const printableAlg = (alg: unknown) => (typeof alg === 'string' && /^[A-Za-z0-9_-]{1,16}$/.test(alg) ? alg : '(invalid)');

/**
 * Bearer JWTs (RFC 6750 §2.1) verified with jose: one allowed algorithm, signature, `exp`, `nbf`,
 * `iss`, `aud`, and a `sub` naming an existing user (so deleted users and changed roles take effect
 * before the token expires).
 */
export class JwtAuthenticator implements Authenticator {
  readonly name = 'jwt';
  readonly credentialHeaders = ['authorization'];
  readonly #options: JwtAuthenticatorOptions;

  constructor(options: JwtAuthenticatorOptions) {
    this.#options = options;
  }

  #fail(code: ErrorCode, params: Record<string, string | number> = {}, cause?: unknown): HttpError {
    // RFC 6750 §3: a rejected token gets error="invalid_token" in the challenge.
    const description = errorCodes[code].message(params);
    return HttpError.of(code, params, { cause, headers: { 'www-authenticate': bearerChallenge(this.#options.realm, description) } });
  }

  async authenticate(request: AuthenticationRequest): Promise<User | null> {
    const token = authorizationCredentials(request, 'Bearer');
    if (token === null) return null;
    const { keys, issuer, audience, users } = this.#options;
    const limit = this.#options.maxTokenBytes ?? 8192;
    if (Buffer.byteLength(token) > limit) throw this.#fail('jwt_too_large', { limit });
    if (!JWS_COMPACT.test(token)) throw this.#fail('jwt_malformed');
    const { decodeProtectedHeader, jwtVerify, errors } = await loadJose();
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch (error) {
      throw this.#fail('jwt_malformed', {}, error);
    }
    // Checked before verification so `alg: none` and algorithm confusion (HS256 with an RSA public key) never reach a verifier.
    if (alg !== keys.algorithm) throw this.#fail('jwt_algorithm_not_allowed', { alg: printableAlg(alg), expected: keys.algorithm });

    let sub: unknown;
    try {
      const { payload } = await jwtVerify(token, keys.verifyCryptoKey, { algorithms: [keys.algorithm], issuer, audience, requiredClaims: ['sub', 'exp'] });
      sub = payload.sub;
    } catch (error) {
      throw this.#fromJose(error, errors);
    }
    if (typeof sub !== 'string' || sub === '') throw this.#fail('jwt_claim_invalid', { claim: 'sub' });
    const user = await users.findById(sub);
    if (user === null) throw this.#fail('jwt_user_not_found');
    return user;
  }

  #fromJose(error: unknown, errors: typeof Jose.errors): HttpError {
    if (error instanceof errors.JWTExpired) return this.#fail('jwt_expired', {}, error);
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'nbf' && error.reason === 'check_failed') return this.#fail('jwt_not_yet_valid', {}, error);
      return this.#fail('jwt_claim_invalid', { claim: error.claim }, error);
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) return this.#fail('jwt_bad_signature', {}, error);
    if (error instanceof errors.JOSEError) return this.#fail('jwt_malformed', {}, error);
    throw error;
  }
}
