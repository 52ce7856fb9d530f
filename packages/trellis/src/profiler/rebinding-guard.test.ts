import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rebindingGuard } from './rebinding-guard.ts';

test('without TRUSTED_HOSTS: IP literals and localhost names only', () => {
  const safe = rebindingGuard(false);
  for (const host of ['127.0.0.1', '127.0.0.1:8000', '10.0.0.5:443', '[::1]', '[::1]:8000', 'localhost', 'LOCALHOST:8000', 'localhost.', 'app.localhost:3000']) assert.equal(safe(host), true, host);
  for (const host of [undefined, '', 'evil.example', 'evil.example:8000', 'evil.example.', '127.0.0.1.nip.io', 'localhost.evil.example', 'xlocalhost', '1.2.3', 'devbox']) assert.equal(safe(host), false, String(host));
});

test('with TRUSTED_HOSTS the guard phase has vetted the name: every Host that got here', () => {
  assert.equal(rebindingGuard(true)('devbox.lan'), true);
});
