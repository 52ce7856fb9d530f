import { createPrivateKey, createPublicKey, createSecretKey, randomBytes, type KeyObject, type webcrypto } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;
import { readFileSync } from 'node:fs';
import type { JwtConfig } from '../app/config.ts';

export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

/** The one algorithm tokens must use, with the keys to verify and (when available) to sign. */
export interface JwtKeys {
  readonly algorithm: JwtAlgorithm;
  readonly verifyKey: KeyObject;
  /**
   * The same key as a WebCrypto CryptoKey, converted once: jose verifies with WebCrypto and would
   * otherwise import the KeyObject again on every request.
   */
  readonly verifyCryptoKey: CryptoKey;
  /** Null when only a public key is configured: tokens are verified but not issued here. */
  readonly signKey: KeyObject | null;
  /** True when no key was configured and a random per-process secret is used. */
  readonly ephemeral: boolean;
}

const WEBCRYPTO_ALGORITHMS = {
  HS256: { name: 'HMAC', hash: 'SHA-256' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
} as const;

function cryptoKeyFor(key: KeyObject, algorithm: JwtAlgorithm): CryptoKey {
  return key.toCryptoKey(WEBCRYPTO_ALGORITHMS[algorithm], false, ['verify']) as CryptoKey;
}

function algorithmOf(key: KeyObject, file: string): JwtAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(`${file}: expected an RSA or P-256 EC key for RS256/ES256, got ${key.asymmetricKeyType}`);
}

/**
 * Keys from the configuration: RS256/ES256 from PEM files (the algorithm follows the key type), else
 * HS256 from JWT_SECRET, else a random secret that lives as long as the process. Exactly one
 * algorithm is accepted, so a token can never choose a weaker one (or `none`) for itself.
 */
export function loadJwtKeys(config: JwtConfig): JwtKeys {
  if (config.publicKeyFile || config.privateKeyFile) {
    const privateKey = config.privateKeyFile ? createPrivateKey(readFileSync(config.privateKeyFile)) : null;
    const publicKey = config.publicKeyFile ? createPublicKey(readFileSync(config.publicKeyFile)) : createPublicKey(privateKey!);
    const algorithm = algorithmOf(publicKey, config.publicKeyFile ?? config.privateKeyFile!);
    return { algorithm, verifyKey: publicKey, verifyCryptoKey: cryptoKeyFor(publicKey, algorithm), signKey: privateKey, ephemeral: false };
  }
  const secret = config.secret === null ? randomBytes(32) : Buffer.from(config.secret, 'utf8');
  const key = createSecretKey(secret);
  return { algorithm: 'HS256', verifyKey: key, verifyCryptoKey: cryptoKeyFor(key, 'HS256'), signKey: key, ephemeral: config.secret === null };
}
