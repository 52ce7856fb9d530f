/**
 * The Configuration panel (issue 16, item 8): versions, environment, features, resources and
 * their operations, and the process environment, where only the variables Trellis reads show
 * their values (secret-named ones and URL passwords redacted) and any other is named only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import { withoutUrlPassword } from '../../src/profiler/app-facts.ts';
import { BROWSER } from './profiler-app.ts';

test('the configuration panel: versions, features, resources, and an environment that keeps its secrets', async () => {
  process.env.TRELLIS_TEST_APP_SETTING = 'canary-app-setting-4b1f';
  process.env.REDIS_URL = 'redis://user:canary-redis-pass-77@127.0.0.1:6399/0';
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:', JWT_SECRET: 'canary-jwt-secret-0123456789-abcdefghij' }), database, tls: null, seed: { passwordCost: 1024 } });
  try {
    const res = await app.inject({ url: '/books/1' });
    const page = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}?panel=config`, headers: { accept: BROWSER } })).body;
    assert.match(page, /<h2>Configuration<\/h2>/);
    assert.ok(page.includes(`<th scope="row">Node.js</th><td>${process.versions.node}</td>`));
    assert.ok(page.includes(`<th scope="row">Fastify</th><td>${app.version}</td>`));
    const kysely = (JSON.parse(readFileSync(new URL('../../../../node_modules/kysely/package.json', import.meta.url), 'utf8')) as { version: string }).version;
    assert.ok(page.includes(`<th scope="row">Kysely</th><td>${kysely}</td>`), 'the Kysely version');
    assert.match(page, /<td>Book<\/td><td class="mono">\/books<\/td><td class="mono">[^<]*getCollection \(GET \/books\)/);
    assert.match(page, /<th scope="row">Profile store<\/th><td>memory:<\/td>/);
    // Named, not shown; a URL password redacted; a secret-named variable redacted.
    assert.match(page, /<th scope="row">TRELLIS_TEST_APP_SETTING<\/th><td>\(set, not shown\)<\/td>/);
    assert.equal(page.includes('canary-app-setting-4b1f'), false);
    assert.equal(page.includes('canary-redis-pass-77'), false);
    assert.match(page, /redis:\/\/user:\[redacted\]@127\.0\.0\.1:6399\/0/);
    assert.equal(page.includes('canary-jwt-secret'), false);
  } finally {
    delete process.env.TRELLIS_TEST_APP_SETTING;
    delete process.env.REDIS_URL;
    await app.close();
    await database.destroy();
  }
});

test('withoutUrlPassword', () => {
  assert.equal(withoutUrlPassword('postgres://app:s3cr%40t@db:5432/shop'), 'postgres://app:[redacted]@db:5432/shop');
  assert.equal(withoutUrlPassword('postgres://db:5432/shop'), 'postgres://db:5432/shop');
  assert.equal(withoutUrlPassword('sqlite:var/data.db'), 'sqlite:var/data.db');
  assert.equal(withoutUrlPassword('redis://:pw@h:1/0'), 'redis://:[redacted]@h:1/0');
  // A raw "@" in the password: the host begins after the last one.
  assert.equal(withoutUrlPassword('postgres://u:pa@ss@h/db'), 'postgres://u:[redacted]@h/db');
  // pg and ioredis read a password from the query too.
  assert.equal(withoutUrlPassword('redis://127.0.0.1:6399/0?password=CNRYredisqs41'), 'redis://127.0.0.1:6399/0?password=[redacted]');
  assert.equal(withoutUrlPassword('postgres://u@h/db?sslmode=require&password=Zq9&application_name=shop'), 'postgres://u@h/db?sslmode=require&password=[redacted]&application_name=shop');
  assert.equal(withoutUrlPassword('sqlite:var/profiler.db'), 'sqlite:var/profiler.db');
});
