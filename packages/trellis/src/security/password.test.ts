import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password.ts';

test('a hash verifies its password and no other', async () => {
  const hash = await hashPassword('correct horse');
  assert.match(hash, /^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  assert.equal(await verifyPassword('correct horse', hash), true);
  assert.equal(await verifyPassword('correct horse!', hash), false);
  assert.notEqual(await hashPassword('correct horse'), hash, 'salted');
});

test('malformed hashes verify as false instead of throwing', async () => {
  for (const bad of ['', 'plain', 'scrypt$1$2$3$x$y', 'bcrypt$a$b$c$d$e', 'scrypt$99999999$8$1$AAAA$AAAA']) {
    assert.equal(await verifyPassword('x', bad), false, bad);
  }
  assert.equal(await verifyPassword('anything', DUMMY_PASSWORD_HASH), false);
});
