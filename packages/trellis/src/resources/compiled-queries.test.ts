import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { CamelCasePlugin, sql, type SqlBool } from 'kysely';
import { openDatabase, type Database } from '../data/database.ts';
import { CompiledQueries } from './compiled-queries.ts';
import { defineResource } from './define-resource.ts';
import type { Filter } from './filter.ts';
import { kyselyStateProvider } from './kysely-state-provider.ts';
import { resolvePagination } from './pagination.ts';
import { ResourceRegistry } from './resource-registry.ts';
import type { OperationContext, Page, QueryParams } from './state-provider.ts';

/** `?min=n` keeps rows with n ≤ size; its bind claims no values, which is a lie. */
const lyingFilter: Filter = {
  name: 'min',
  parameters: () => [{ name: 'min', property: 'size', type: 'integer', description: 'Smallest size.', multiple: false }],
  where: (q, { params }) => (params.min === undefined ? q : q.where(sql<SqlBool>`size >= ${Number(params.min)}`)),
  bind: ({ params }) => ({ shape: params.min === undefined ? '' : 'min', values: [] }),
};
/** `?max=n`, without bind: queries naming it are built per request. */
const plainFilter: Filter = {
  name: 'max',
  parameters: () => [{ name: 'max', property: 'size', type: 'integer', description: 'Largest size.', multiple: false }],
  where: (q, { params }) => (params.max === undefined ? q : q.where(sql<SqlBool>`size <= ${Number(params.max)}`)),
};
const Crate = defineResource({
  name: 'Crate',
  path: '/crates',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), size: Type.Integer() }),
  filters: [lyingFilter, plainFilter],
  pagination: { itemsPerPage: 2 },
});
const registry = new ResourceRegistry([Crate]);
const op = (name: string) => Crate.operations.find((o) => o.name === name)!;

async function crates(): Promise<Database> {
  const db = openDatabase('sqlite::memory:');
  await db.schema.createTable('crates').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('size', 'integer').execute();
  await db.insertInto('crates').values([1, 2, 3, 4, 5].map((id) => ({ id, size: id * 10 }))).execute();
  return db;
}

function context(db: Database, query: QueryParams, params: Record<string, string> = {}): OperationContext {
  return { request: null, db, registry, params, query, pagination: resolvePagination(Crate, query), embed: new Set(), previousObject: null };
}

async function sizes(db: Database, query: QueryParams): Promise<{ sizes: unknown[]; total: number | null }> {
  const page = (await kyselyStateProvider.provide(op('getCollection'), context(db, query))) as Page;
  return { sizes: page.items.map((i) => i.size), total: page.totalItems };
}

test('the item query is compiled once and run with each identifier', async () => {
  const db = await crates();
  const queries = new CompiledQueries();
  const build = (id: string | number) => db.selectFrom('crates').selectAll().where('id', '=', id);
  const first = queries.item(db, Crate, 1, build);
  const second = queries.item(db, Crate, 4, build);
  assert.equal(second.query, first.query, 'the same compiled node, not a new build');
  assert.equal(second.sql, first.sql);
  assert.deepEqual(second.parameters, [4]);
  assert.deepEqual((await db.executeQuery(second)).rows.map((r) => ({ ...(r as object) })), [{ id: 4, size: 40 }]);
  assert.equal(((await kyselyStateProvider.provide(op('get'), context(db, {}, { id: '3' }))) as { size: number }).size, 30);
  await db.destroy();
});

test('a database with Kysely plugins gets no templates: plugins transform each build', async () => {
  const db = await crates();
  const withPlugin = db.withPlugin(new CamelCasePlugin());
  const queries = new CompiledQueries();
  const build = (id: string | number) => withPlugin.selectFrom('crates').selectAll().where('id', '=', id);
  assert.notEqual(queries.item(withPlugin, Crate, 1, build).query, queries.item(withPlugin, Crate, 1, build).query);
  assert.equal(queries.collection(withPlugin, Crate, '', [], () => ({ query: build(1), base: build(1) })), null);
  await db.destroy();
});

test('pages of one shape share a compiled query and get their own limit and offset', async () => {
  const db = await crates();
  assert.deepEqual(await sizes(db, { page: '1' }), { sizes: [10, 20], total: 5 });
  assert.deepEqual(await sizes(db, { page: '3' }), { sizes: [50], total: 5 });
  assert.deepEqual(await sizes(db, { page: '2', itemsPerPage: '1' }), { sizes: [20], total: 5 });
  await db.destroy();
});

test('a shape whose SQL binds other values than its filters said is built per request, never reused', async () => {
  const db = await crates();
  assert.deepEqual(await sizes(db, { min: '30' }), { sizes: [30, 40], total: 3 });
  assert.deepEqual(await sizes(db, { min: '40' }), { sizes: [40, 50], total: 2 });
  const queries = new CompiledQueries();
  const build = () => ({ query: db.selectFrom('crates').selectAll().where(sql<SqlBool>`size >= ${30}`), base: db.selectFrom('crates') });
  assert.equal(queries.collection(db, Crate, 'min', [], build), null);
  // A filter without bind: its queries are built per request.
  assert.deepEqual(await sizes(db, { max: '20' }), { sizes: [10, 20], total: 2 });
  assert.deepEqual(await sizes(db, { max: '10' }), { sizes: [10], total: 1 });
  await db.destroy();
});
