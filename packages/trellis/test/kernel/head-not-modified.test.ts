import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';
import { appPerSuite, sqliteBackend } from '../resources/fixtures.ts';

// RFC 9110 §8.6: a 304 carries no Content-Length, or the length the 200 would have had; Fastify's
// HEAD routes set 0, which says the representation is empty.
describe('HEAD answered 304 (RFC 9110 §8.6, §15.4.5)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await createApp({ config: testConfig({ PROFILER: '0' }), tls: null });
    app.get('/tagged', async (request, reply) => {
      reply.header('etag', '"v1"');
      if (request.headers['if-none-match'] === '"v1"') return reply.code(304).send();
      return reply.type('text/plain').send('twelve bytes');
    });
    await app.ready();
  });
  after(() => app.close());

  test('an app route: the HEAD 304 has no Content-Length, like the GET 304; the HEAD 200 keeps it', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/tagged', headers: { 'if-none-match': '"v1"' } });
    assert.equal(head.statusCode, 304);
    assert.equal(head.headers['content-length'], undefined);
    assert.equal(head.headers.etag, '"v1"');
    assert.equal(head.body, '');
    const get = await app.inject({ method: 'GET', url: '/tagged', headers: { 'if-none-match': '"v1"' } });
    assert.equal(get.headers['content-length'], undefined);
    const head200 = await app.inject({ method: 'HEAD', url: '/tagged' });
    assert.equal(head200.statusCode, 200);
    assert.equal(head200.headers['content-length'], '12');
  });

  test('the OpenAPI document: the HEAD 304 has no Content-Length', async () => {
    const etag = (await app.inject({ method: 'GET', url: '/docs.json' })).headers.etag as string;
    const head = await app.inject({ method: 'HEAD', url: '/docs.json', headers: { 'if-none-match': etag } });
    assert.equal(head.statusCode, 304);
    assert.equal(head.headers['content-length'], undefined);
    assert.equal(head.headers.etag, etag);
  });
});

describe('HEAD answered 304 by a resource operation', () => {
  const app = appPerSuite(sqliteBackend);

  test('item and collection: no Content-Length, ETag and Vary kept', async () => {
    for (const url of ['/novels/1', '/novels']) {
      const etag = (await app().inject({ method: 'GET', url })).headers.etag as string;
      const head = await app().inject({ method: 'HEAD', url, headers: { 'if-none-match': etag } });
      assert.equal(head.statusCode, 304, url);
      assert.equal(head.headers['content-length'], undefined, url);
      assert.equal(head.headers.etag, etag, url);
      assert.match(String(head.headers.vary), /Accept/, url);
    }
  });
});
