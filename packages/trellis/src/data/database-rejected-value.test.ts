import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
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
        [sql`insert into t (n) values (${'99999999999'})`, 'value "99999999999" is out of range for type integer'],
        [sql`insert into t (price) values (${123456})`, 'numeric field overflow'],
        [sql`insert into t (code) values (${'abcd'})`, 'value too long for type character varying(3)'],
        [sql`select * from t where n > ${'1.5'}`, 'invalid input syntax for type integer: "1.5"'],
      ] as const) {
        const error = await refusal(query);
        assert.deepEqual([error.status, error.code, error.message], [422, 'database_rejected_value', `The database cannot hold a value of this request: ${reason}.`]);
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
    assert.equal(databaseRejectedValue(withCode('numeric field overflow', '22003', 'ERROR')), 'numeric field overflow');
  });
});
