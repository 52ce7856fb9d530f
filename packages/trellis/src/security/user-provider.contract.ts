/**
 * The one contract suite for UserProvider implementations (see user-provider.ts). Each
 * implementation's test calls it with a factory that stores the fixture users below.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKeyHash } from './api-key-hash.ts';
import type { UserProvider } from './user-provider.ts';

export interface FixtureUser {
  readonly id: number;
  readonly email: string;
  readonly passwordHash: string | null;
  readonly roles: readonly string[];
  readonly apiKeyHash: string | null;
}

export const FIXTURE_USERS: readonly FixtureUser[] = [
  { id: 1, email: 'alice@example.test', passwordHash: 'scrypt$1024$8$1$c2FsdA$aGFzaA', roles: ['ROLE_USER'], apiKeyHash: apiKeyHash('alice-key') },
  { id: 2, email: 'admin@example.test', passwordHash: null, roles: ['ROLE_ADMIN'], apiKeyHash: null },
];

export function userProviderContract(name: string, make: () => Promise<UserProvider>, options: { skip?: string | false } = {}): void {
  describe(`UserProvider contract: ${name}`, { skip: options.skip }, () => {
    test('finds by email with the password hash and roles', async () => {
      const users = await make();
      assert.deepEqual(await users.findByIdentifier('alice@example.test'), {
        user: { id: 1, identifier: 'alice@example.test', roles: ['ROLE_USER'] },
        passwordHash: 'scrypt$1024$8$1$c2FsdA$aGFzaA',
      });
      assert.deepEqual(await users.findByIdentifier('admin@example.test'), { user: { id: 2, identifier: 'admin@example.test', roles: ['ROLE_ADMIN'] }, passwordHash: null });
      assert.equal(await users.findByIdentifier('ALICE@example.test'), null);
      assert.equal(await users.findByIdentifier('nobody@example.test'), null);
    });

    test('finds by id given as text', async () => {
      const users = await make();
      assert.deepEqual(await users.findById('2'), { id: 2, identifier: 'admin@example.test', roles: ['ROLE_ADMIN'] });
      assert.equal(await users.findById('3'), null);
    });

    test('finds by API key hash only', async () => {
      const users = await make();
      assert.deepEqual(await users.findByApiKeyHash(apiKeyHash('alice-key')), { id: 1, identifier: 'alice@example.test', roles: ['ROLE_USER'] });
      assert.equal(await users.findByApiKeyHash(apiKeyHash('other-key')), null);
      assert.equal(await users.findByApiKeyHash('alice-key'), null);
    });

    test('malformed input is a miss, never an error', async () => {
      const users = await make();
      for (const bad of ['', 'abc', '1.5', '-1', '1e3', "1' or '1'='1", '99999999999999999999', '2147483648', 'x'.repeat(10_000)]) {
        assert.equal(await users.findById(bad), null, bad);
        assert.equal(await users.findByIdentifier(bad), null, bad);
        assert.equal(await users.findByApiKeyHash(bad), null, bad);
      }
    });
  });
}
