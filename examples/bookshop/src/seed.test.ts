import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyPassword } from 'trellis';
import { SEED_USERS } from './seed.ts';

test('each kept seed hash is the documented password at the default scrypt cost', async () => {
  for (const user of SEED_USERS) {
    assert.match(user.passwordHash, /^scrypt\$131072\$8\$1\$/);
    assert.equal(await verifyPassword(user.password, user.passwordHash), true, user.email);
    assert.equal(await verifyPassword(`${user.password}x`, user.passwordHash), false, user.email);
  }
});
