/**
 * Pagination's query parameters, run against every database backend (SQLite and PostgreSQL): the
 * bounds of page and itemsPerPage, and a one-value parameter given twice. Each suite gets a fresh
 * database (resource-suite.ts holds the rest of the resource API's behaviour).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite, type Backend } from './fixtures.ts';

export function paginationSuite(backend: Backend, skip: string | false): void {
  describe(`pagination parameters on ${backend.name}`, { skip }, () => {
    const current = appPerSuite(backend);
    const get = (url: string, headers: Record<string, string> = {}) => current().inject({ method: 'GET', url, headers });

    test('itemsPerPage is capped by the maximum; bad page values are 400s', async () => {
      assert.equal((await get('/novels?itemsPerPage=50')).json().member.length, 5);
      assert.equal((await get('/novels?itemsPerPage=1')).json().view.last, '/novels?itemsPerPage=1&page=5');
      const bad = await get('/novels?page=abc');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().detail, 'Invalid value "abc" for the query parameter "page": expected a page number from 1 to 999999999.');
      // The message names the range the check enforces: a page of ten digits is past it, not below 1.
      assert.equal((await get('/novels?page=1000000000')).json().detail, 'Invalid value "1000000000" for the query parameter "page": expected a page number from 1 to 999999999.');
      assert.equal((await get('/novels?page=999999999')).statusCode, 200);
      const none = await get('/novels?itemsPerPage=0');
      assert.equal(none.statusCode, 400);
      assert.equal(none.json().detail, 'Invalid value "0" for the query parameter "itemsPerPage": expected a number from 1 (a page holds at most 5 items).');
    });

    test('a one-value parameter given different values is a 400 in either order; the same value twice is one', async () => {
      for (const query of ['page=abc&page=2', 'page=2&page=abc', 'page=2&page=3', 'itemsPerPage=abc&itemsPerPage=2']) {
        const res = await get(`/novels?${query}`);
        assert.equal(res.statusCode, 400, query);
        const name = query.slice(0, query.indexOf('='));
        assert.equal(res.json().detail, `The query parameter "${name}" takes one value; it was given 2 different ones.`, query);
      }
      assert.equal((await get('/novels?page=2&page=2')).json().view['@id'], '/novels?page=2');
    });
  });
}
