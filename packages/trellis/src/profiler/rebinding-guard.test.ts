import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rebindingGuard } from './rebinding-guard.ts';

test('without TRUSTED_HOSTS: IP literals and localhost names only', () => {
  const safe = rebindingGuard([]);
  for (const host of ['127.0.0.1', '127.0.0.1:8000', '10.0.0.5:443', '[::1]', '[::1]:8000', 'localhost', 'LOCALHOST:8000', 'localhost.', 'app.localhost:3000']) assert.equal(safe(host), true, host);
  for (const host of [undefined, '', 'evil.example', 'evil.example:8000', 'evil.example.', '127.0.0.1.nip.io', 'localhost.evil.example', 'xlocalhost', '1.2.3', 'devbox']) assert.equal(safe(host), false, String(host));
});

test('with TRUSTED_HOSTS a listed name is the operator\'s and opens it; any other name still does not', () => {
  const safe = rebindingGuard([/^(localhost|devbox\.lan)$/]);
  assert.equal(safe('devbox.lan:8000'), true);
  assert.equal(safe('127.0.0.1'), true);
  // X-Forwarded-Host from a trusted proxy passed the guard phase; the Host a rebound page sent did not.
  assert.equal(safe('evil.example'), false);
});
