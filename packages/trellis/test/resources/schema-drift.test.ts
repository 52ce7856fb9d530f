/**
 * Resources are checked against the database once the app is ready: a table or column the
 * database lacks is one warning at startup, naming the resource and the likeliest name meant,
 * instead of a 500 at the first request that needs it. Resources with their own provider and
 * processor are not checked; a database that cannot be read is no warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { createApp, createLogger, defineResource, openDatabase } from '../../src/index.ts';
import { testConfig } from '../../src/testing/test-config.ts';

const schema = Type.Object({ id: Type.Readonly(Type.Integer()), title: Type.String(), shelfCode: Type.String() });

async function warningsFor(resources: unknown[], setup: (db: ReturnType<typeof openDatabase>) => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const config = testConfig({ PROFILER: '0' });
  const logger = createLogger({ level: 'debug', captureRequestRecords: false, destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
  const database = openDatabase('sqlite::memory:');
  await setup(database);
  const app = await createApp({ config, tls: null, logger, database, resources });
  try {
    await app.ready();
    const warnings = () => lines.map((l) => JSON.parse(l) as { level: number; channel?: string; msg: string }).filter((l) => l.channel === 'resources');
    // The check runs after ready, without holding it up.
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('"channel":"resources"')); i++) await sleep(5);
    await sleep(20);
    return warnings().map((l) => `${l.level} ${l.msg}`);
  } finally {
    await app.close();
    await database.destroy();
  }
}

const shelfTable = (db: ReturnType<typeof openDatabase>) => db.schema.createTable('books').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('title', 'text').addColumn('shelf_code', 'text').execute();

test('a schema that matches: nothing said', async () => {
  const Book = defineResource({ name: 'Book', path: '/books', schema });
  assert.deepEqual(await warningsFor([Book], shelfTable), []);
});

test('a column misspelt in `columns`, and a property with no column: a warning each, naming what was meant', async () => {
  const Book = defineResource({ name: 'Book', path: '/books', schema, columns: { shelfCode: 'shelf_cod' } });
  const Extra = defineResource({ name: 'Extra', path: '/books-extra', table: 'books', schema: Type.Object({ id: Type.Readonly(Type.Integer()), subtitle: Type.String() }) });
  assert.deepEqual(await warningsFor([Book, Extra], shelfTable), [
    '40 Resource "Book": table "books" has no column "shelf_cod" for property "shelfCode" (did you mean "shelf_code"?); its operations will fail',
    '40 Resource "Extra": table "books" has no column "subtitle" for property "subtitle"; its operations will fail',
  ]);
});

test('a table that is not there: said once, with the likeliest table, or a migration not run', async () => {
  const Books = defineResource({ name: 'Book', path: '/book', schema });
  const Authors = defineResource({ name: 'Author', path: '/authors', schema: Type.Object({ id: Type.Readonly(Type.Integer()), name: Type.String() }) });
  assert.deepEqual(await warningsFor([Books, Authors], shelfTable), [
    '40 Resource "Book": the database has no table "book" (did you mean "books"? set `table`); its operations will fail',
    '40 Resource "Author": the database has no table "authors" (a migration not run?); its operations will fail',
  ]);
});

test('a resource with its own provider and processor has no table to check', async () => {
  const Clock = defineResource({ name: 'Clock', path: '/clocks', schema: Type.Object({ id: Type.Readonly(Type.Integer()), now: Type.String() }), provider: async () => null, processor: async (data) => data });
  assert.deepEqual(await warningsFor([Clock], async () => {}), []);
});
