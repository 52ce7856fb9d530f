import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets, secretKeyMatcher } from './redact-secrets.ts';

test('secret-looking keys are redacted at any depth, other values kept', () => {
  const input = {
    headers: { Authorization: 'Bearer abc', cookie: 'sid=1', 'x-api-key': 'k', accept: 'text/html' },
    body: { email: 'a@b.c', password: 'hunter2', nested: [{ access_token: 't', ok: 1 }] },
  };
  assert.deepEqual(redactSecrets(input), {
    headers: { Authorization: '[redacted]', cookie: '[redacted]', 'x-api-key': '[redacted]', accept: 'text/html' },
    body: { email: 'a@b.c', password: '[redacted]', nested: [{ access_token: '[redacted]', ok: 1 }] },
  });
  assert.equal(input.body.password, 'hunter2', 'input is not mutated');
});

test('the key list is configurable', () => {
  assert.deepEqual(redactSecrets({ pin: '1234', password: 'x' }, secretKeyMatcher(['pin'])), { pin: '[redacted]', password: 'x' });
});

test('past the depth limit a subtree is redacted whole, never kept', () => {
  let deep: unknown = { token: 'deep-secret' };
  for (let i = 0; i < 40; i++) deep = { level: deep };
  const out = JSON.stringify(redactSecrets({ context: deep }));
  assert.equal(out.includes('deep-secret'), false);
  assert.match(out, /"level":"\[redacted\]"/);
});

test('the usual spellings of keys, passwords and card codes are secret by default', () => {
  assert.deepEqual(redactSecrets({ privateKey: 'pk', user_pwd: 'p', cvv: '123', card_cvv2: '456', title: 'x' }), { privateKey: '[redacted]', user_pwd: '[redacted]', cvv: '[redacted]', card_cvv2: '[redacted]', title: 'x' });
});
