/**
 * The Database panel on PostgreSQL: row counts for every query, and queries the app runs with
 * `pg` itself (a pool of its own, promise and callback style) recorded beside Kysely's, all
 * observed through pg's client (data/observe-pg.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type pgModule from 'pg';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { openDatabase, type Database } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { postgresForTests } from '../../src/testing/services.ts';

const pg = await postgresForTests();

interface DbData {
  count: number;
  failed: number;
  queries: { sql: string; rows?: number | null; error?: string | null; parameters: unknown[] }[];
}

describe('Database panel on PostgreSQL', { skip: pg.skip }, () => {
  let app: FastifyInstance;
  let database: Database;
  let pool: pgModule.Pool;
  before(async () => {
    database = openDatabase(pg.url!);
    // The app's own pool, from the same `pg` module the framework loaded.
    const { Pool } = createRequire(import.meta.url)('pg') as typeof pgModule;
    pool = new Pool({ connectionString: pg.url!, max: 2 });
    app = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null });
    app.get('/pg', async () => {
      const series = await sql<{ n: number }>`select generate_series(1, ${3}::int) as n`.execute(database);
      const raw = await pool.query('select generate_series(1, $1::int) as n', [5]);
      const client = await pool.connect();
      try {
        await client.query('create temporary table t (n int)');
        const inserted = await client.query({ text: 'insert into t select generate_series(1, $1::int)', values: [4] });
        const viaCallback = await new Promise<number>((resolve, reject) => client.query('update t set n = n + 1 where n > 2', (error, result) => (error ? reject(error) : resolve(result.rowCount ?? -1))));
        await client.query('select * from no_such_table').catch(() => null);
        return { kysely: series.rows.length, raw: raw.rowCount, inserted: inserted.rowCount, updated: viaCallback };
      } finally {
        client.release();
      }
    });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await pool?.end();
    await database?.destroy();
  });

  test("Kysely's queries and the app's own pg queries, each with its rows; a failed one with its error", async () => {
    const res = await app.inject({ url: '/pg' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { kysely: 3, raw: 5, inserted: 4, updated: 2 });
    await app.profiler!.settled();
    const profile = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: DbData } };
    const db = profile.collectors.db;
    const byStart = (prefix: string) => db.queries.find((q) => q.sql.startsWith(prefix));
    assert.deepEqual(
      db.queries.map((q) => [q.sql, q.rows ?? null]),
      [
        ['select generate_series(1, $1::int) as n', 3],
        ['select generate_series(1, $1::int) as n', 5],
        ['create temporary table t (n int)', null],
        ['insert into t select generate_series(1, $1::int)', 4],
        ['update t set n = n + 1 where n > 2', 2],
        ['select * from no_such_table', null],
      ],
    );
    assert.deepEqual(db.queries[1]!.parameters, [5]);
    assert.equal(db.failed, 1);
    assert.match(String(byStart('select * from no_such_table')?.error), /relation "no_such_table" does not exist/);
  });

  test('queries outside any request are not recorded anywhere, and nothing is published with nobody listening', async () => {
    const before = (await app.profiler!.storage.find({ limit: 1000 })).length;
    await pool.query('select 1');
    await app.profiler!.settled();
    assert.equal((await app.profiler!.storage.find({ limit: 1000 })).length, before);
  });
});
