/**
 * The hostile spellings of the new panel parameters and the EXPLAIN route: every one is a page or
 * a 4xx, never a 500, and no markup sent in them comes back as markup.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';

test('hostile panel parameters and EXPLAIN requests: 200 or 4xx, nothing echoed as markup', async (t) => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  const res = await app.inject({ url: '/books/1', headers: { cookie: 'a=1; '.repeat(500), 'user-agent': '<script>ua</script>' } });
  await app.profiler!.settled();
  const token = res.headers['x-debug-token'] as string;
  const expected: Record<string, number> = {
    [`/_profiler/${token}/explain/0`]: 400,
    [`/_profiler/${token}/explain/-1`]: 400,
    [`/_profiler/${token}/explain/1e3`]: 400,
    [`/_profiler/${token}/explain/%ff`]: 400,
    [`/_profiler/${token}/explain/1?signature=a&signature=b`]: 403,
    [`/_profiler/${token}/explain/1?signature[x]=1`]: 403,
    [`/_profiler/${token}/explain/1`]: 403,
    ['/_profiler/abcdef/explain/1?signature=x']: 404,
    [`/_profiler/${token}?panel=time&min=abc`]: 200,
    [`/_profiler/${token}?panel=time&min=-5`]: 200,
    [`/_profiler/${token}?panel=time&min=1e308`]: 200,
    [`/_profiler/${token}?panel=time&min[]=1`]: 200,
    [`/_profiler/${token}?panel=logs&level=%3Cscript%3Elv%3C/script%3E&channel=%00`]: 200,
    [`/_profiler/${token}?panel=logs&level=a&level=b`]: 200,
    [`/_profiler/${token}?panel=${'x'.repeat(3000)}`]: 404,
    [`/_profiler/${token}?panel=%3Cscript%3Elv%3C/script%3E`]: 404,
  };
  for (const [url, status] of Object.entries(expected)) {
    const answer = await app.inject({ url, headers: { accept: 'text/html' } });
    assert.equal(answer.statusCode, status, url.slice(0, 80));
    assert.doesNotMatch(answer.body, /<script>(ua|lv)/, url.slice(0, 80));
  }
  const long = await app.inject({ url: `/_profiler/${token}?panel=${'x'.repeat(3000)}` });
  assert.ok(long.body.includes(`no panel &quot;${'x'.repeat(79)}…&quot;`), 'a long panel name is quoted cut');
  const request = await app.inject({ url: `/_profiler/${token}?panel=request`, headers: { accept: 'text/html' } });
  assert.match(request.body, /&lt;script&gt;ua&lt;\/script&gt;/);
  assert.equal((request.body.match(/<th scope="row">a<\/th>/g) ?? []).length, 1, '500 cookies of one name are one row');
});
