import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tlsCredentials } from './tls-credentials.ts';
import { loadConfig } from './config.ts';

test('TLS_CERT and TLS_KEY that cannot be used stop startup with one line naming the variable', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A certificate and its key, as HTTPS=1 makes them.
  await tlsCredentials(loadConfig({ HTTPS: '1' }), dir);
  const cert = join(dir, 'tls', 'localhost.crt');
  const key = join(dir, 'tls', 'localhost.key');
  const notPem = join(dir, 'notes.txt');
  writeFileSync(notPem, 'not a key\n');
  const otherKey = join(dir, 'other.key');
  writeFileSync(otherKey, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const missing = join(dir, 'missing.pem');
  const cases: [string, string, string][] = [
    [missing, key, `TLS_CERT: cannot read "${missing}" (ENOENT)`],
    [cert, missing, `TLS_KEY: cannot read "${missing}" (ENOENT)`],
    [notPem, key, `TLS_CERT: "${notPem}" is not a PEM certificate`],
    [cert, notPem, `TLS_KEY: "${notPem}" is not a PEM private key`],
    [cert, cert, `TLS_KEY: "${cert}" is not a PEM private key`],
    [cert, otherKey, `TLS_KEY: "${otherKey}" is not the private key of the certificate in "${cert}" (TLS_CERT)`],
  ];
  for (const [certFile, keyFile, message] of cases) {
    await assert.rejects(tlsCredentials(loadConfig({ TLS_CERT: certFile, TLS_KEY: keyFile })), (e: Error) => e.name === 'ConfigError' && e.message === message, message);
  }
  const good = await tlsCredentials(loadConfig({ TLS_CERT: cert, TLS_KEY: key }));
  assert.match(good!.key, /^-----BEGIN (RSA )?PRIVATE KEY-----/);
});
