import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadJwtKeys } from './jwt-keys.ts';
import type { JwtConfig } from '../app/config.ts';

const base: JwtConfig = { secret: null, publicKeyFile: null, privateKeyFile: null, issuer: 'trellis', audience: 'trellis', ttlSeconds: 60 };

test('key files that cannot be used stop startup with one line naming JWT_PRIVATE_KEY or JWT_PUBLIC_KEY', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-jwt-keys-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const privatePem = file('ec.pem', pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  const otherPublic = file('other.pub.pem', other.publicKey.export({ type: 'spki', format: 'pem' }) as string);
  const encrypted = file('encrypted.pem', pair.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }) as string);
  const p384Pem = file('p384.pem', p384.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  const notPem = file('notes.txt', 'not a key\n');
  const missing = join(dir, 'missing.pem');
  const cases: [Partial<JwtConfig>, string][] = [
    [{ privateKeyFile: missing }, `JWT_PRIVATE_KEY: cannot read "${missing}" (ENOENT)`],
    [{ privateKeyFile: notPem }, `JWT_PRIVATE_KEY: "${notPem}" is not a PEM private key`],
    [{ privateKeyFile: otherPublic }, `JWT_PRIVATE_KEY: "${otherPublic}" is not a PEM private key`],
    [{ privateKeyFile: encrypted }, `JWT_PRIVATE_KEY: "${encrypted}" is encrypted; give the key without a passphrase`],
    [{ privateKeyFile: p384Pem }, `JWT_PRIVATE_KEY: expected an RSA or P-256 EC key for RS256/ES256, got ec (secp384r1) in "${p384Pem}"`],
    [{ publicKeyFile: missing }, `JWT_PUBLIC_KEY: cannot read "${missing}" (ENOENT)`],
    [{ publicKeyFile: notPem }, `JWT_PUBLIC_KEY: "${notPem}" is not a PEM public key`],
    [{ privateKeyFile: privatePem, publicKeyFile: otherPublic }, `JWT_PUBLIC_KEY: "${otherPublic}" is not the public key of "${privatePem}" (JWT_PRIVATE_KEY)`],
  ];
  for (const [files, message] of cases) {
    assert.throws(() => loadJwtKeys({ ...base, ...files }), (e: Error) => e.name === 'ConfigError' && e.message === message, message);
  }
  const keys = loadJwtKeys({ ...base, privateKeyFile: privatePem, publicKeyFile: file('ec.pub.pem', pair.publicKey.export({ type: 'spki', format: 'pem' }) as string) });
  assert.equal(keys.algorithm, 'ES256', 'a matching pair is used');
});
