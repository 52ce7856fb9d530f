import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchParams, toProfileQuery } from './search-params.ts';

test('status: a code or a class, under the form\'s name or the live view\'s', () => {
  assert.deepEqual(toProfileQuery(searchParams({ status_code: '404' })), { limit: 10, statusCode: 404 });
  assert.deepEqual(toProfileQuery(searchParams({ status_code: '5xx' })), { limit: 10, statusClass: 5 });
  assert.deepEqual(toProfileQuery(searchParams({ status_code: '4XX' })), { limit: 10, statusClass: 4 });
  assert.deepEqual(toProfileQuery(searchParams({ status: '403' })), { limit: 10, statusCode: 403 });
  assert.deepEqual(toProfileQuery(searchParams({ status: '403', status_code: '500' })), { limit: 10, statusCode: 500 });
  for (const bad of ['6xx', '0xx', 'xx', '4x', '99', '600', '40 4']) {
    assert.throws(() => toProfileQuery(searchParams({ status_code: bad })), { message: 'Invalid profiler search parameter "status_code": expected a status code from 100 to 599, or a class such as 4xx.' }, bad);
  }
});
