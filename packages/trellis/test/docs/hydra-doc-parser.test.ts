/**
 * API Platform's documentation parser (@api-platform/api-doc-parser) on apps other than the
 * bookshop, over a real socket: a collection that cannot be written to (no POST, so no operation
 * returning the class) is still found with its fields, from the entrypoint property's range
 * (hydra:Collection whose members are all of the class, as API Platform writes it).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseHydraDocumentation } from '@api-platform/api-doc-parser';
import { createApp } from '../../src/app/create-app.ts';
import { openDatabase, type Database } from '../../src/data/database.ts';
import { migrate } from '../../src/data/migrate.ts';
import { defineResource } from '../../src/resources/define-resource.ts';
import { testConfig } from '../../src/testing/test-config.ts';

const Station = defineResource({
  name: 'Station',
  path: '/stations',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), name: Type.String() }),
  operations: { getCollection: true, get: true },
});
const Train = defineResource({
  name: 'Train',
  path: '/trains',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), code: Type.String(), departsFrom: Type.String() }),
  relations: { departsFrom: 'Station' },
  operations: { getCollection: true, get: true, post: true },
});

let db: Database;
let app: FastifyInstance;
let base: string;
before(async () => {
  db = openDatabase('sqlite::memory:');
  await migrate(db, {
    '001': {
      async up(k: Kysely<any>) {
        await k.schema.createTable('stations').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
        await k.schema.createTable('trains').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('code', 'text').addColumn('departs_from_id', 'integer').execute();
      },
    },
  });
  app = await createApp({ name: 'Rail', config: testConfig({ PROFILER: '0' }), resources: [Station, Train], database: db, tls: null });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await app.close();
  await db.destroy();
});

test('a read-only collection and a writable one are both found, with fields and the relation between them', async () => {
  const { api, status } = await parseHydraDocumentation(base);
  assert.equal(status, 200);
  assert.equal(api.title, 'Rail');
  const resources = api.resources ?? [];
  assert.deepEqual(resources.map((r) => r.name), ['stations', 'trains']);
  const [stations, trains] = resources;
  assert.deepEqual((stations!.fields ?? []).map((f) => f.name), ['id', 'name']);
  assert.deepEqual((stations!.operations ?? []).map((o) => `${o.type} ${o.method}`), ['list GET', 'show GET']);
  const departsFrom = (trains!.fields ?? []).find((f) => f.name === 'departsFrom')!;
  assert.equal((departsFrom.reference as { name?: string } | null)?.name, 'stations');
});

test('the entrypoint property says what a collection holds: hydra:Collection of the class', async () => {
  const docs = (await (await fetch(`${base}/docs.jsonld`)).json()) as any;
  const entrypoint = docs.supportedClass.find((c: any) => c.title === 'Entrypoint');
  const stations = entrypoint.supportedProperty[0].property;
  assert.deepEqual(stations.range, [
    'hydra:Collection',
    { 'owl:equivalentClass': { 'owl:onProperty': { '@id': 'hydra:member' }, 'owl:allValuesFrom': { '@id': `${base}/docs.jsonld#Station` } } },
  ]);
});
