import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, openDatabase } from 'trellis';
import { testConfig } from 'trellis/testing';
import { buildApp } from '../src/app.ts';

async function setup() {
  const database = openDatabase('sqlite::memory:');
  const app = await buildApp({ config: testConfig(), database, tls: null });
  await database
    .insertInto('users')
    .values({ email: 'ada@example.test', password_hash: await hashPassword('ada-password', { N: 1024, r: 8, p: 1 }), roles: '["ROLE_USER"]' })
    .execute();
  return { app, close: async () => (await app.close(), await database.destroy()) };
}

test('anyone can list the tasks', async (t) => {
  const { app, close } = await setup();
  t.after(close);
  const res = await app.inject({ method: 'GET', url: '/tasks', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json().map((task: { title: string }) => task.title), ['Read the Trellis README', 'Declare my first resource', 'Open a profile at /_profiler/latest']);
});

test('adding a task needs a signed-in user', async (t) => {
  const { app, close } = await setup();
  t.after(close);
  const body = { title: 'Write a test' };
  const anonymous = await app.inject({ method: 'POST', url: '/tasks', payload: body });
  assert.equal(anonymous.statusCode, 401);

  const login = await app.inject({ method: 'POST', url: '/auth', payload: { email: 'ada@example.test', password: 'ada-password' } });
  assert.equal(login.statusCode, 200);
  const created = await app.inject({ method: 'POST', url: '/tasks', payload: body, headers: { authorization: `Bearer ${login.json().token}`, accept: 'application/json' } });
  assert.equal(created.statusCode, 201);
  assert.equal(created.json().title, 'Write a test');
  assert.equal(created.json().done, false);
});
