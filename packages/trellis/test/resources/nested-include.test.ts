/**
 * Nested relation paths (JSON:API 1.1, Inclusion of Related Resources: `include=shelf.owner`;
 * `embed=shelf.owner` in the other formats): every level is loaded for the whole page at once
 * and passes the access rule a direct GET of its target would, level by level, so nothing
 * reached through a relation the reader may not follow appears in `included` or anywhere else.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { openDatabase, type Database } from '../../src/data/database.ts';
import { migrate } from '../../src/data/migrate.ts';
import { defineResource } from '../../src/resources/define-resource.ts';
import { testConfig } from '../../src/testing/test-config.ts';

const JSONAPI = 'application/vnd.api+json';
// A reader's account is private to them (the reader is the X-Reader header: no authentication
// needed to test access); shelves and loans are public, and point at accounts.
const Account = defineResource({
  name: 'Account',
  path: '/accounts',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), name: Type.String(), secret: Type.String() }),
  operations: { get: { security: ({ request, object }) => request.headers['x-reader'] === (object as { name: string }).name } },
});
const Shelf = defineResource({
  name: 'Shelf',
  path: '/shelves',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), label: Type.String(), owner: Type.String(), parent: Type.Union([Type.String(), Type.Null()]) }),
  relations: { owner: 'Account', parent: 'Shelf' },
  operations: { getCollection: true, get: true },
});
const Loan = defineResource({
  name: 'Loan',
  path: '/loans',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), title: Type.String(), shelf: Type.String(), borrower: Type.String() }),
  relations: { shelf: 'Shelf', borrower: 'Account' },
  operations: { getCollection: true, get: true },
});

let db: Database;
let app: FastifyInstance;
before(async () => {
  db = openDatabase('sqlite::memory:');
  await migrate(db, {
    '001': {
      async up(k: Kysely<any>) {
        await k.schema.createTable('accounts').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').addColumn('secret', 'text').execute();
        await k.schema.createTable('shelves').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('label', 'text').addColumn('owner_id', 'integer').addColumn('parent_id', 'integer').execute();
        await k.schema.createTable('loans').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('title', 'text').addColumn('shelf_id', 'integer').addColumn('borrower_id', 'integer').execute();
      },
    },
  });
  await db.insertInto('accounts').values([{ id: 1, name: 'ann', secret: 'ann-secret-1' }, { id: 2, name: 'bo', secret: 'bo-secret-2' }]).execute();
  await db.insertInto('shelves').values([{ id: 1, label: 'Ann top', owner_id: 1, parent_id: null }, { id: 2, label: 'Bo top', owner_id: 2, parent_id: null }, { id: 3, label: 'Ann lower', owner_id: 1, parent_id: 2 }]).execute();
  await db.insertInto('loans').values([{ id: 1, title: 'Dune', shelf_id: 1, borrower_id: 2 }, { id: 2, title: 'Emma', shelf_id: 2, borrower_id: 1 }, { id: 3, title: 'Ulysses', shelf_id: 3, borrower_id: 1 }]).execute();
  app = await createApp({ config: testConfig({ PROFILER: '0' }), resources: [Account, Shelf, Loan], database: db, tls: null });
});
after(async () => {
  await app.close();
  await db.destroy();
});

const get = async (url: string, reader?: string, accept = JSONAPI) => {
  const res = await app.inject({ url, headers: { accept, ...(reader ? { 'x-reader': reader } : {}) } });
  return { status: res.statusCode, body: res.body, json: res.json() as any };
};
const included = (doc: any) => (doc.included ?? []).map((r: any) => `${r.type}/${r.id}`).sort();

test('include=shelf.owner: the shelves and, through them, the owners the reader may read', async () => {
  const ann = await get('/loans?include=shelf.owner', 'ann');
  assert.equal(ann.status, 200);
  assert.deepEqual(included(ann.json), ['Account/1', 'Shelf/1', 'Shelf/2', 'Shelf/3'], 'the intermediate shelves, and Ann\'s own account only');
  const shelf2 = ann.json.included.find((r: any) => r.type === 'Shelf' && r.id === '2');
  assert.deepEqual(shelf2.relationships.owner, { data: { type: 'Account', id: '2' } }, 'Bo\'s account stays linkage');
  assert.doesNotMatch(ann.body, /bo-secret-2/);
  const anonymous = await get('/loans?include=shelf.owner,borrower');
  assert.deepEqual(included(anonymous.json), ['Shelf/1', 'Shelf/2', 'Shelf/3']);
  assert.doesNotMatch(anonymous.body, /secret-/);
  const bo = await get('/loans?include=shelf.owner,borrower', 'bo');
  assert.deepEqual(included(bo.json), ['Account/2', 'Shelf/1', 'Shelf/2', 'Shelf/3']);
});

test('three levels deep, through a self-reference; the primary data is never repeated in included', async () => {
  const res = await get('/loans/3?include=shelf.parent.owner', 'bo');
  assert.deepEqual(included(res.json), ['Account/2', 'Shelf/2', 'Shelf/3']);
  const shelves = await get('/shelves?include=parent', 'ann');
  assert.deepEqual(included(shelves.json), [], 'shelf 2 is primary data: not included again');
  assert.deepEqual(shelves.json.data.find((s: any) => s.id === '3').relationships.parent, { data: { type: 'Shelf', id: '2' } });
});

test('the other formats embed the same paths, with the same decisions', async () => {
  const jsonld = (await get('/loans/1?embed=shelf.owner', 'ann', 'application/ld+json')).json;
  assert.equal(jsonld.shelf['@id'], '/shelves/1');
  assert.equal(jsonld.shelf.owner.secret, 'ann-secret-1');
  const denied = (await get('/loans/2?embed=shelf.owner', 'ann', 'application/ld+json')).json;
  assert.equal(denied.shelf.owner, '/accounts/2', 'Bo\'s account is an IRI for Ann');
  const hal = (await get('/loans/1?embed=shelf.owner', 'ann', 'application/hal+json')).json;
  assert.equal(hal._embedded.shelf._embedded.owner.name, 'ann');
  const json = (await get('/loans?embed=shelf.owner', undefined, 'application/json')).json;
  assert.deepEqual(json.map((l: any) => l.shelf.owner), ['/accounts/1', '/accounts/2', '/accounts/1']);
});

test('hostile paths: too deep, empty or unknown segments, other spellings are 400s with the exact message; repeats count once', async () => {
  const message = (value: string) => `Invalid value "${value}" for the query parameter "include": expected relationship paths of the resource, up to 3 relationships deep.`;
  for (const path of ['shelf.parent.parent.owner', 'shelf..owner', '.shelf', 'shelf.', 'Shelf', 'shelf.owner.secret', 'shelf.title', 'borrower.shelf', '__proto__', 'constructor.prototype', 'shelf.owner\u0000']) {
    const res = await get(`/loans?include=${encodeURIComponent(path)}`, 'ann');
    assert.equal(res.status, 400, path);
    assert.equal(res.json.errors[0].detail, message(path), path);
  }
  const repeated = await get(`/loans?include=${Array.from({ length: 200 }, () => 'shelf.owner').join(',')}`, 'ann');
  assert.equal(repeated.status, 200);
  assert.equal(repeated.json.links.self, '/loans?include=shelf.owner&page%5Bnumber%5D=1');
  assert.equal((await get('/loans?include=%73helf.owner', 'ann')).json.included.length, 4, 'percent-encoded, the same path');
});

test('embed (the other formats) refuses what leads nowhere as include does, and bounds its list', async () => {
  const message = (value: string) => `Invalid value "${value}" for the query parameter "embed": expected relation paths of the resource, up to 3 relations deep.`;
  for (const path of ['shelf.parent.parent.owner', 'shelf..owner', 'Shelf', 'shelf.title', '__proto__', 'nope']) {
    const res = await get(`/loans?embed=${encodeURIComponent(path)}`, 'ann', 'application/json');
    assert.equal(res.status, 400, path);
    assert.equal(res.json.detail, message(path), path);
  }
  // 15,000 commas were echoed into every pagination link: a 180 kB Link header.
  const commas = await get(`/loans?embed=${','.repeat(15_000)}`, 'ann', 'application/json');
  assert.equal(commas.status, 400);
  assert.equal(commas.json.detail, 'The query parameter "embed" takes at most 100 values; 15001 were given.');
  const trailing = await get('/loans/1?embed=shelf.owner,', 'ann', 'application/json');
  assert.equal(trailing.status, 200);
  assert.equal(trailing.json.shelf.owner.id, 1);
});
