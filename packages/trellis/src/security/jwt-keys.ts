import { createPrivateKey, createPublicKey, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { JwtConfig } from '../app/config.ts';

export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

/** The one algorithm tokens must use, with the keys to verify and (when available) to sign. */
export interface JwtKeys {
  readonly algorithm: JwtAlgorithm;
  readonly verifyKey: KeyObject;
  /** Null when only a public key is configured: tokens are verified but not issued here. */
  readonly signKey: KeyObject | null;
  /** True when no key was configured and a random per-process secret is used. */
  readonly ephemeral: boolean;
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
    return { algorithm: algorithmOf(publicKey, config.publicKeyFile ?? config.privateKeyFile!), verifyKey: publicKey, signKey: privateKey, ephemeral: false };
  }
  const secret = config.secret === null ? randomBytes(32) : Buffer.from(config.secret, 'utf8');
  const key = createSecretKey(secret);
  return { algorithm: 'HS256', verifyKey: key, signKey: key, ephemeral: config.secret === null };
}
