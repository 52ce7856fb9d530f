import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from './env-parsers.ts';

// Keys and certificates come from files a variable names (TLS_KEY, JWT_PRIVATE_KEY): what is
// wrong with one is said naming the variable, where OpenSSL would say "DECODER routines::
// unsupported" and Node "ENOENT" with a stack.

/** The text of the file `variable` names. */
export function readPemFile(variable: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(variable, `cannot read "${file}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** The private key in `pem`, the text of the file `variable` names. */
export function privateKeyIn(variable: string, file: string, pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw new ConfigError(variable, notAKey(file, pem, 'private'));
  }
}

/** The public key in `pem` (a private key or a certificate gives theirs), the text of the file `variable` names. */
export function publicKeyIn(variable: string, file: string, pem: string): KeyObject {
  try {
    return createPublicKey(pem);
  } catch {
    throw new ConfigError(variable, notAKey(file, pem, 'public'));
  }
}

function notAKey(file: string, pem: string, kind: 'private' | 'public'): string {
  // A key under a passphrase is a PEM key all the same: nothing here asks for its passphrase.
  if (/^-----BEGIN ENCRYPTED PRIVATE KEY-----|^Proc-Type: 4,ENCRYPTED/m.test(pem)) return `"${file}" is encrypted; give the key without a passphrase`;
  return `"${file}" is not a PEM ${kind} key`;
}
