import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import { createApp } from '../app/create-app.ts';
import { defineResource } from '../resources/define-resource.ts';
import { testConfig } from '../testing/test-config.ts';
import { databaseRejectedValue } from './database-rejected-value.ts';
import { toHttpError } from '../kernel/to-http-error.ts';
import { postgresForTests } from '../testing/services.ts';
import { openTestSchema } from '../testing/test-schema.ts';

const context = { contentType: undefined, supportedContentTypes: () => [], bodyLimit: 1 };

describe('a value the database refused (SQLSTATE class 22) is a 422 in its words, never a 500', async () => {
  const pg = await postgresForTests();

  test('PostgreSQL\'s own data exceptions', { skip: pg.skip }, async () => {
    const opened = await openTestSchema('rejected_value');
    try {
      await sql`create table t (n integer, price numeric(5, 2), code varchar(3))`.execute(opened.db);
      const refusal = async (query: ReturnType<typeof sql>) => {
        const error = await query.execute(opened.db).then(() => null, (e: unknown) => e);
        assert.ok(error instanceof Error, 'the database refused it');
        return toHttpError(error, context);
      };
      for (const [query, reason] of [
        [sql`insert into t (n) values (${'99999999999'})`, "a number out of its column's range (SQLSTATE 22003)"],
        [sql`insert into t (price) values (${123456})`, "a number out of its column's range (SQLSTATE 22003)"],
        [sql`insert into t (code) values (${'abcd'})`, 'a string longer than its column holds (SQLSTATE 22001)'],
        [sql`select * from t where n > ${'1.5'}`, "a value that is not of its column's type (SQLSTATE 22P02)"],
      ] as const) {
        const error = await refusal(query);
        assert.deepEqual([error.status, error.code, error.message], [422, 'database_rejected_value', `The database cannot hold a value of this request: ${reason}.`]);
      }
      // The server's own faults stay 500s, and nothing the database said reaches the message.
      for (const query of [sql`select 1 / 0 as x`, sql`select 'a' ~ '(' as x`]) assert.equal((await refusal(query)).status, 500);
      await sql`insert into t (code) values ('k=1')`.execute(opened.db);
      const leaked = await refusal(sql`select code::int from t`);
      assert.deepEqual([leaked.status, leaked.message.includes('k=1')], [422, false]);
    } finally {
      await opened.close();
    }
  });

  test('an id its column cannot hold names no item: 404, not a 422', { skip: pg.skip }, async () => {
    const opened = await openTestSchema('rejected_id');
    try {
      await sql`create table tokens (id uuid primary key, name text not null)`.execute(opened.db);
      const Token = defineResource({ name: 'Token', path: '/tokens', schema: Type.Object({ id: Type.Readonly(Type.String()), name: Type.String() }) });
      const app = await createApp({ config: testConfig({ PROFILER: '0' }), resources: [Token], database: opened.db, tls: null });
      try {
        for (const id of ['not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
          const res = await app.inject({ url: `/tokens/${id}`, headers: { accept: 'application/json' } });
          assert.deepEqual([res.statusCode, res.json().detail], [404, `Item not found for "/tokens/${id}".`], id);
        }
      } finally {
        await app.close();
      }
    } finally {
      await opened.close();
    }
  });

  test('anything else is not one', () => {
    const withCode = (message: string, code: string, severity?: string) => Object.assign(new Error(message), { code, ...(severity && { severity }) });
    for (const error of [
      withCode('duplicate key value violates unique constraint', '23505', 'ERROR'),
      withCode('syntax error at or near "x"', '42601', 'ERROR'),
      withCode('value out of range', '22003'),
      withCode('connect ECONNREFUSED', 'ECONNREFUSED'),
      'text',
      null,
    ]) {
      assert.equal(databaseRejectedValue(error), null, String(error));
    }
    assert.equal(databaseRejectedValue(withCode('numeric field overflow', '22003', 'ERROR')), "a number out of its column's range (SQLSTATE 22003)");
    assert.equal(databaseRejectedValue(withCode('division by zero', '22012', 'ERROR')), null);
  });
});
