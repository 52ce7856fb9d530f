/**
 * Every page of the profile of every route renders: for each GET route the bookshop registers
 * (the documentation, the resources, the entrypoint, their formats), the request is made and its
 * profile opened on every built-in panel, as JSON, as HAR and as a curl command. A response whose
 * content names secrets (the OpenAPI document describes `password` fields and an API-key header)
 * once made the profile's redaction scrub "string" and "header" from every text and key, and the
 * request panel answered 500.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testConfig } from 'trellis/testing';
import { defaultPanels } from 'trellis/profiler';
import { createBookshop } from '../src/bookshop.ts';
import { backends, type ShopDatabase } from './backends.ts';

const sqlite = (await backends())[0]!;
let app: FastifyInstance;
let shop: ShopDatabase;
before(async () => {
  shop = await sqlite.open();
  app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database: shop.db, tls: null, seed: { passwordCost: 1024 } });
  await app.ready();
});
after(async () => {
  await app?.close();
  await shop?.close();
});

/** The GET routes outside the profiler, with a parameter filled in (`1`, or a format the route knows). */
function getPaths(): string[] {
  const paths = new Set<string>();
  for (const { path, methods } of app.trellis.routes.entries()) {
    if (!methods.includes('GET') || path.startsWith('/_profiler') || path.startsWith('/_wdt') || path.includes('*')) continue;
    paths.add(path.replace(/:id\b/g, '1').replace(/:format\b/g, 'json').replace(/:[a-zA-Z]+/g, 'Book'));
  }
  return [...paths];
}

test('the profile of every GET route opens on every panel, as JSON, HAR and curl', async () => {
  const paths = getPaths();
  for (const required of ['/docs.json', '/docs.jsonld', '/books/1', '/']) assert.ok(paths.includes(required), `${required} among ${paths.join(', ')}`);
  for (const path of paths) {
    const res = await app.inject({ method: 'GET', url: path });
    const token = res.headers['x-debug-token'];
    assert.match(String(token), /^[0-9a-f]{6}$/, `${path} was profiled`);
    await app.profiler!.settled();
    for (const panel of ['', ...defaultPanels.map((p) => `?panel=${p.name}`), '.json', '.har']) {
      const page = await app.inject({ method: 'GET', url: `/_profiler/${token}${panel}` });
      assert.equal(page.statusCode, 200, `${path}: /_profiler/${token}${panel} answered ${page.statusCode}: ${page.body.slice(0, 300)}`);
    }
    const json = JSON.parse((await app.inject({ method: 'GET', url: `/_profiler/${token}.json` })).body);
    // The request's headers keep their names: the redaction never renames a field.
    const request = json.collectors?.request ?? json.panels?.request ?? json.request;
    assert.ok(JSON.stringify(request).includes('"headers"'), `${path}: the request's headers are in its profile`);
    assert.ok(!JSON.stringify(json).includes('[redacted]s"'), `${path}: no field renamed by redaction`);
  }
});
