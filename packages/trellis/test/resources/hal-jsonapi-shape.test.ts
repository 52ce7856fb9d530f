/** HAL and JSON:API documents checked against the rules of their specifications. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { appFor, sqliteBackend } from './fixtures.ts';

let app: FastifyInstance;
let close: () => Promise<void>;
before(async () => {
  const opened = await sqliteBackend.open();
  close = opened.close;
  app = await appFor(opened.db);
});
after(async () => {
  await app.close();
  await close();
});

const get = async (url: string, accept: string) => {
  const res = await app.inject({ method: 'GET', url, headers: { accept } });
  // JSON:API 1.1, Content Negotiation: its media type goes out with no parameter.
  assert.equal(res.headers['content-type'], accept === 'application/vnd.api+json' ? accept : `${accept}; charset=utf-8`);
  return res.json();
};

/** draft-kelly-json-hal §4-5: `_links` maps relations to link objects (or arrays of them) with `href`; `_embedded` maps to resource objects. */
function assertHal(doc: any): void {
  assert.equal(typeof doc._links, 'object');
  assert.equal(typeof doc._links.self.href, 'string');
  for (const link of Object.values(doc._links)) for (const l of [link].flat() as any[]) assert.equal(typeof l.href, 'string');
  for (const embedded of Object.values(doc._embedded ?? {})) for (const r of [embedded].flat()) assertHal(r);
}

/** JSON:API 1.1 §7: top-level data or errors; resource objects with string id and type; attributes without id/type; linkage objects. */
function assertJsonApiResource(r: any): void {
  assert.equal(typeof r.id, 'string');
  assert.equal(typeof r.type, 'string');
  assert.equal('id' in r.attributes || 'type' in r.attributes, false);
  for (const rel of Object.values(r.relationships ?? {}) as any[]) {
    assert.ok(rel.data === null || (typeof rel.data.id === 'string' && typeof rel.data.type === 'string'));
  }
}

test('HAL item, embedded item and collection', async () => {
  const item = await get('/novels/1', 'application/hal+json');
  assertHal(item);
  assert.deepEqual(item._links, { self: { href: '/novels/1' }, writer: { href: '/writers/1' } });
  assert.equal(item.writer, undefined);
  const embedded = await get('/novels/1?embed=writer', 'application/hal+json');
  assertHal(embedded);
  assert.deepEqual(embedded._embedded.writer, { _links: { self: { href: '/writers/1' } }, id: 1, name: 'Frank Herbert' });
  const page = await get('/novels?page=2', 'application/hal+json');
  assertHal(page);
  assert.equal(page.totalItems, 5);
  assert.equal(page.itemsPerPage, 3);
  assert.deepEqual(page._links.prev, { href: '/novels?page=1' });
  assert.deepEqual(page._embedded.item.map((i: any) => i.id), [4, 5]);
});

test('JSON:API item, compound document and collection', async () => {
  const item = await get('/novels/2', 'application/vnd.api+json');
  assertJsonApiResource(item.data);
  assert.deepEqual(item.data.relationships, { writer: { data: { type: 'Writer', id: '1' } } });
  assert.equal(item.data.attributes.title, 'Dune Messiah');
  const compound = await get('/novels?embed=writer', 'application/vnd.api+json');
  compound.data.forEach(assertJsonApiResource);
  compound.included.forEach(assertJsonApiResource);
  assert.deepEqual(compound.included.map((r: any) => `${r.type}/${r.id}`).sort(), ['Writer/1', 'Writer/2']);
  assert.deepEqual(compound.meta, { itemsPerPage: 3, totalItems: 5 });
  assert.equal(compound.links.next, '/novels?include=writer&page%5Bnumber%5D=2');
  const error = await app.inject({ method: 'GET', url: '/novels/999', headers: { accept: 'application/vnd.api+json' } });
  assert.equal(error.statusCode, 404);
});
