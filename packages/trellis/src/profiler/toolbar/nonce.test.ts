import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cspNonce } from './nonce.ts';

test('128-bit base64url nonces, none repeated across several refills of the pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const nonce = cspNonce();
    assert.match(nonce, /^[A-Za-z0-9_-]{22}$/);
    seen.add(nonce);
  }
  assert.equal(seen.size, 2000);
});
