import { after, before } from 'node:test';
/**
 * A small catalogue for the resource tests: writers and novels, with every property kind a
 * filter or format must handle (text, nullable text, relation, date, number, boolean).
 */
import { sql, type Kysely } from 'kysely';
import { Type } from '@sinclair/typebox';
import { createApp } from '../../src/app/create-app.ts';
import { isPostgres, openDatabase, type Database } from '../../src/data/database.ts';
import { migrate } from '../../src/data/migrate.ts';
import { defineResource } from '../../src/resources/define-resource.ts';
import { booleanFilter } from '../../src/resources/filters/boolean-filter.ts';
import { dateFilter } from '../../src/resources/filters/date-filter.ts';
import { existsFilter } from '../../src/resources/filters/exists-filter.ts';
import { orderFilter } from '../../src/resources/filters/order-filter.ts';
import { rangeFilter } from '../../src/resources/filters/range-filter.ts';
import { searchFilter } from '../../src/resources/filters/search-filter.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { openTestSchema } from '../../src/testing/test-schema.ts';
import type { FastifyInstance } from 'fastify';

export const Writer = defineResource({
  name: 'Writer',
  path: '/writers',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), name: Type.String({ minLength: 1 }) }),
  pagination: { partial: true, itemsPerPage: 2 },
});

/** What the security rules saw, for assertions. */
export const seen: { object: unknown; previousObject: unknown }[] = [];

export const Novel = defineResource({
  name: 'Novel',
  path: '/novels',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer()),
    title: Type.String({ minLength: 1, maxLength: 100 }),
    summary: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    writer: Type.String(),
    publishedOn: Type.String({ format: 'date' }),
    price: Type.Number({ minimum: 0 }),
    available: Type.Boolean(),
  }),
  relations: { writer: 'Writer' },
  operations: {
    getCollection: true,
    get: true,
    post: true,
    put: true,
    patch: {
      security: ({ request }) => request.headers['x-role'] === 'editor',
      securityMessage: 'Editors only.',
      securityPostDenormalize: ({ object, previousObject }) => {
        seen.push({ object, previousObject });
        return (object as { title: string }).title !== 'Forbidden title';
      },
      securityPostDenormalizeMessage: 'That title is not allowed.',
    },
    delete: true,
  },
  filters: [
    searchFilter({ title: 'ipartial', summary: 'word_start', writer: 'exact' }),
    rangeFilter(['price']),
    dateFilter(['publishedOn']),
    booleanFilter(['available']),
    existsFilter(['summary']),
    orderFilter(['title', 'publishedOn', 'price']),
  ],
  pagination: { itemsPerPage: 3, maximumItemsPerPage: 5, clientPartial: true },
  validate: (novel) => ((novel.title as string).startsWith(' ') ? [{ propertyPath: 'title', message: 'This value should not start with a space.', code: 'trim' }] : []),
});

const migrations = {
  '001': {
    async up(db: Kysely<any>) {
      const pg = isPostgres(db);
      await db.schema.createTable('writers').addColumn('id', 'integer', (c) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement())).addColumn('name', 'text', (c) => c.notNull()).execute();
      await db.schema
        .createTable('novels')
        .addColumn('id', 'integer', (c) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
        .addColumn('title', 'text', (c) => c.notNull().unique())
        .addColumn('summary', 'text')
        .addColumn('writer_id', 'integer', (c) => c.notNull().references('writers.id'))
        .addColumn('published_on', pg ? sql`date` : 'text', (c) => c.notNull())
        .addColumn('price', pg ? sql`numeric(10,2)` : 'real', (c) => c.notNull())
        .addColumn('available', 'boolean', (c) => c.notNull())
        .execute();
    },
  },
};

export const NOVELS = [
  { title: 'Dune', summary: 'Spice and sand', writer_id: 1, published_on: '1965-08-01', price: 9.99, available: true },
  { title: 'Dune Messiah', summary: null, writer_id: 1, published_on: '1969-10-15', price: 8.5, available: false },
  { title: 'The Dispossessed', summary: 'An ambiguous utopia', writer_id: 2, published_on: '1974-05-01', price: 12, available: true },
  { title: 'A Wizard of Earthsea', summary: 'Magic school', writer_id: 2, published_on: '1968-11-01', price: 7.25, available: true },
  { title: '100% Real_Story', summary: 'Percent and underscore', writer_id: 2, published_on: '2001-01-01', price: 20, available: false },
];

async function fill(db: Database): Promise<void> {
  await migrate(db, migrations);
  await db.insertInto('writers').values([{ name: 'Frank Herbert' }, { name: 'Ursula K. Le Guin' }, { name: 'Nobody Yet' }]).execute();
  const pg = isPostgres(db);
  await db.insertInto('novels').values(NOVELS.map((n) => ({ ...n, available: pg ? n.available : n.available ? 1 : 0 }))).execute();
}

export interface Backend {
  readonly name: string;
  /** A fresh, filled database; `close` drops what it created. */
  open(): Promise<{ db: Database; close(): Promise<void> }>;
}

export const sqliteBackend: Backend = {
  name: 'SQLite',
  async open() {
    const db = openDatabase('sqlite::memory:');
    await fill(db);
    return { db, close: () => db.destroy() };
  },
};

export const postgresBackend: Backend = {
  name: 'PostgreSQL',
  async open() {
    const opened = await openTestSchema('trellis_resources');
    await fill(opened.db);
    return opened;
  },
};

export async function appFor(db: Database, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const app = await createApp({ config: testConfig({ PROFILER: '0', ...env }), resources: [Writer, Novel], database: db, tls: null });
  await app.ready();
  return app;
}

/**
 * A fresh app on `backend` for the enclosing `describe`: opened before its tests, closed after.
 * Returns the app's getter (the app exists only once `before` has run).
 */
export function appPerSuite(backend: Backend): () => FastifyInstance {
  let app: FastifyInstance | undefined;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    const opened = await backend.open();
    close = opened.close;
    app = await appFor(opened.db);
  });
  after(async () => {
    await app?.close();
    await close?.();
  });
  return () => app!;
}
