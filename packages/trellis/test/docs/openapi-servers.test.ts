/**
 * The OpenAPI document's `servers` (OpenAPI 3.1 §4.8.5) and `info.contact` (§4.8.3): by default
 * the origin the document was asked on, so Swagger UI and generated clients call the host the
 * reader reached; configured ones replace it. Hosts are the client's to choose: each gets its own
 * document, a refused one gets none.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import { bookshopApp } from './bookshop-app.ts';

let app: FastifyInstance;
before(async () => {
  app = await bookshopApp();
});
after(() => app.close());

const docsFor = async (target: FastifyInstance, headers: Record<string, string>) => {
  const res = await target.inject({ url: '/docs.json', headers });
  return { status: res.statusCode, etag: res.headers.etag, doc: res.statusCode === 200 ? res.json() : null, body: res.body };
};

test('servers name the origin the document was asked on; the contact is the app\'s', async () => {
  const a = await docsFor(app, { host: 'api.example.test:8443' });
  assert.deepEqual(a.doc.servers, [{ url: 'http://api.example.test:8443', description: 'This server.' }]);
  assert.deepEqual(a.doc.info.contact, { name: 'Bookshop API team', url: 'https://bookshop.test/api', email: 'api@bookshop.test' });
  const b = await docsFor(app, { host: '127.0.0.1:9' });
  assert.deepEqual(b.doc.servers, [{ url: 'http://127.0.0.1:9', description: 'This server.' }]);
  assert.notEqual(a.etag, b.etag, 'a different document, a different ETag');
  const yaml = await app.inject({ url: '/docs.yaml', headers: { host: 'api.example.test:8443' } });
  assert.match(yaml.body, /\nservers:\n {2}- url: http:\/\/api\.example\.test:8443\n/);
});

test('many hosts: each still gets its own origin (the cache is bounded, the answers are not wrong)', async () => {
  for (let i = 0; i < 20; i++) {
    const { doc } = await docsFor(app, { host: `h${i}.example.test` });
    assert.deepEqual(doc.servers, [{ url: `http://h${i}.example.test`, description: 'This server.' }]);
  }
});

test('hostile hosts: a refused Host gets the guard\'s 400, never a document naming it; untrusted X-Forwarded-Host is ignored', async () => {
  const refused = await docsFor(app, { host: 'evil.test/<script>' });
  assert.equal(refused.status, 400);
  assert.doesNotMatch(refused.body, /servers/);
  const forwarded = await docsFor(app, { host: 'api.example.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' });
  assert.deepEqual(forwarded.doc.servers, [{ url: 'http://api.example.test', description: 'This server.' }]);
});

test('configured servers replace the request\'s origin', async () => {
  const database = openDatabase('sqlite::memory:');
  const configured = await createBookshop({
    config: testConfig({ PROFILER: '0' }),
    database,
    tls: null,
    seed: false,
    docs: { servers: [{ url: 'https://api.bookshop.test/v1', description: 'Production.' }], contact: { email: 'ops@bookshop.test' } },
  });
  try {
    const { doc } = await docsFor(configured, { host: 'localhost:8000' });
    assert.deepEqual(doc.servers, [{ url: 'https://api.bookshop.test/v1', description: 'Production.' }]);
    assert.deepEqual(doc.info.contact, { email: 'ops@bookshop.test' });
  } finally {
    await configured.close();
    await database.destroy();
  }
});
