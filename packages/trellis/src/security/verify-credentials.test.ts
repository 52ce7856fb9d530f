import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryUserProvider } from './memory-user-provider.ts';
import { hashPassword } from './password.ts';
import type { UserProvider } from './user-provider.ts';
import { verifyCredentials } from './verify-credentials.ts';

const hash = await hashPassword('right', { N: 1024, r: 8, p: 1 });
const records = [
  { id: 1, email: 'a@example.test', passwordHash: hash, roles: ['ROLE_USER'] },
  { id: 2, email: 'nopass@example.test', passwordHash: null, roles: [] },
];

test('the right password gives the user; every failure gives null', async () => {
  const users = new MemoryUserProvider(records);
  assert.deepEqual(await verifyCredentials(users, 'a@example.test', 'right'), { id: 1, identifier: 'a@example.test', roles: ['ROLE_USER'] });
  assert.equal(await verifyCredentials(users, 'a@example.test', 'wrong'), null);
  assert.equal(await verifyCredentials(users, 'nobody@example.test', 'right'), null);
  assert.equal(await verifyCredentials(users, 'nopass@example.test', ''), null);
  assert.equal(await verifyCredentials(users, 'a@example.test', `right${'x'.repeat(2000)}`), null);
});

test('an unknown user still costs one lookup and one full scrypt verification (equal time)', async () => {
  const lookups: string[] = [];
  const memory = new MemoryUserProvider(records);
  const counting: UserProvider = {
    findByIdentifier: (identifier) => (lookups.push(identifier), memory.findByIdentifier(identifier)),
    findById: (id) => memory.findById(id),
    findByApiKeyHash: (h) => memory.findByApiKeyHash(h),
  };
  // The dummy hash uses the production cost, so the unknown-user path cannot be the fast one.
  const { DUMMY_PASSWORD_HASH } = await import('./password.ts');
  assert.match(DUMMY_PASSWORD_HASH, /^scrypt\$131072\$8\$1\$/);
  assert.equal(await verifyCredentials(counting, 'nobody@example.test', 'x'), null);
  assert.deepEqual(lookups, ['nobody@example.test']);
});
