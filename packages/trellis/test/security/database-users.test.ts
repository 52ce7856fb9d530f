import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import { Kysely } from 'kysely';
import { createApp } from '../../src/app/create-app.ts';
import { NodeSqliteDialect } from '../../src/data/node-sqlite-dialect.ts';
import { apiKeyHash } from '../../src/security/api-key-hash.ts';
import { hashPassword } from '../../src/security/password.ts';
import { testConfig } from '../../src/testing/test-config.ts';

let app: FastifyInstance;
let db: Kysely<any>;
before(async () => {
  db = new Kysely<any>({ dialect: new NodeSqliteDialect(new DatabaseSync(':memory:')) });
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('api_key_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('users')
    .values({ id: 1, email: 'reader@example.test', password_hash: await hashPassword('reader-pass', { N: 1024, r: 8, p: 1 }), roles: '["ROLE_ADMIN"]', api_key_hash: apiKeyHash('reader-key'), created_at: '2026-01-01T00:00:00Z' })
    .execute();
  app = await createApp({ config: testConfig(), tls: null, database: db });
  app.get('/admin/me', async (request) => ({ user: request.user }));
  await app.ready();
});
after(async () => {
  await app.close();
  await db.destroy();
});

test('with a Kysely database and no user provider, users come from the users table: /auth, bearer, API key, Basic', async () => {
  const login = await app.inject({ method: 'POST', url: '/auth', payload: { email: 'reader@example.test', password: 'reader-pass' } });
  assert.equal(login.statusCode, 200);
  const expected = { user: { id: 1, identifier: 'reader@example.test', roles: ['ROLE_ADMIN'] } };
  const bearer = await app.inject({ url: '/admin/me', headers: { authorization: `Bearer ${login.json().token}` } });
  assert.deepEqual(bearer.json(), expected);
  assert.deepEqual((await app.inject({ url: '/admin/me', headers: { 'x-api-key': 'reader-key' } })).json(), expected);
  const basic = `Basic ${Buffer.from('reader@example.test:reader-pass').toString('base64')}`;
  assert.deepEqual((await app.inject({ url: '/admin/me', headers: { authorization: basic } })).json(), expected);
  const wrong = await app.inject({ method: 'POST', url: '/auth', payload: { email: 'reader@example.test', password: 'nope' } });
  assert.equal(wrong.statusCode, 401);
});
