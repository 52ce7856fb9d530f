import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDatabaseUnavailable } from './database-unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('connection failures, server shutdowns and locks are "unavailable"', () => {
  for (const error of [
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    withCode('read ECONNRESET', 'ECONNRESET'),
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is starting up', '57P03'),
    withCode('connection failure', '08006'),
    withCode('sorry, too many clients already', '53300'),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated due to connection timeout'),
    new Error('timeout exceeded when trying to connect'),
    withCode('database is locked', 'ERR_SQLITE_ERROR'),
    new Error('wrapped', { cause: withCode('x', 'ECONNREFUSED') }),
  ]) {
    assert.equal(isDatabaseUnavailable(error), true, error.message);
  }
});

test('query errors and everything else are not', () => {
  for (const error of [
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('syntax error at or near "x"', '42601'),
    withCode('no such table: books', 'ERR_SQLITE_ERROR'),
    new Error('Connection is fine, thanks'),
    'ECONNREFUSED',
    null,
  ]) {
    assert.equal(isDatabaseUnavailable(error), false, String(error));
  }
});
