import { createPublicKey, createSecretKey, randomBytes, type KeyObject, type webcrypto } from 'node:crypto';
import { ConfigError, type JwtConfig } from '../app/config.ts';
import { privateKeyIn, publicKeyIn, readPemFile } from '../app/pem-file.ts';

type CryptoKey = webcrypto.CryptoKey;

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

function algorithmOf(key: KeyObject, variable: string, file: string): JwtAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType === 'ec' && curve === 'prime256v1') return 'ES256';
  throw new ConfigError(variable, `expected an RSA or P-256 EC key for RS256/ES256, got ${key.asymmetricKeyType}${curve ? ` (${curve})` : ''} in "${file}"`);
}

/**
 * Keys from the configuration: RS256/ES256 from PEM files (the algorithm follows the key type), else
 * HS256 from JWT_SECRET, else a random secret that lives as long as the process. Exactly one
 * algorithm is accepted, so a token can never choose a weaker one (or `none`) for itself. A key
 * file that cannot be used stops startup with a ConfigError naming its variable.
 */
export function loadJwtKeys(config: JwtConfig): JwtKeys {
  if (config.publicKeyFile || config.privateKeyFile) {
    const privateKey = config.privateKeyFile ? privateKeyIn('JWT_PRIVATE_KEY', config.privateKeyFile, readPemFile('JWT_PRIVATE_KEY', config.privateKeyFile)) : null;
    const publicKey = config.publicKeyFile ? publicKeyIn('JWT_PUBLIC_KEY', config.publicKeyFile, readPemFile('JWT_PUBLIC_KEY', config.publicKeyFile)) : createPublicKey(privateKey!);
    // Tokens signed with one key and verified with another's would all be refused, with no word why.
    if (privateKey !== null && config.publicKeyFile && !createPublicKey(privateKey).equals(publicKey)) {
      throw new ConfigError('JWT_PUBLIC_KEY', `"${config.publicKeyFile}" is not the public key of "${config.privateKeyFile}" (JWT_PRIVATE_KEY)`);
    }
    const algorithm = config.publicKeyFile ? algorithmOf(publicKey, 'JWT_PUBLIC_KEY', config.publicKeyFile) : algorithmOf(publicKey, 'JWT_PRIVATE_KEY', config.privateKeyFile!);
    return { algorithm, verifyKey: publicKey, verifyCryptoKey: cryptoKeyFor(publicKey, algorithm), signKey: privateKey, ephemeral: false };
  }
  const secret = config.secret === null ? randomBytes(32) : Buffer.from(config.secret, 'utf8');
  const key = createSecretKey(secret);
  return { algorithm: 'HS256', verifyKey: key, verifyCryptoKey: cryptoKeyFor(key, 'HS256'), signKey: key, ephemeral: config.secret === null };
}
