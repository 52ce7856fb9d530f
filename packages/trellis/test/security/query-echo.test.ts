// Parameters an operation does not know are not echoed into the links it generates: a token sent
// in the query string must not land in Hydra views, HAL/JSON:API links or Link headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testConfig } from '../../src/testing/test-config.ts';
import { bookshopApp } from '../docs/bookshop-app.ts';

test('an unknown query parameter appears in no generated link, in any format', async (t) => {
  const app = await bookshopApp(testConfig({ PROFILER: '0' }));
  t.after(() => app.close());
  for (const accept of ['application/ld+json', 'application/json', 'application/hal+json', 'application/vnd.api+json']) {
    const res = await app.inject({ url: '/books?access_token=canary-q-1&title=dune&page=1&itemsPerPage=2&api_key=canary-q-2', headers: { accept } });
    assert.equal(res.statusCode, 200, accept);
    const everything = `${res.body}\n${JSON.stringify(res.headers)}`;
    assert.doesNotMatch(everything, /canary-q-|access_token|api_key/, accept);
    assert.match(everything, /title=dune/, `${accept}: the filter stays in the links`);
    assert.match(everything, accept === 'application/vnd.api+json' ? /page%5Bsize%5D=2/ : /itemsPerPage=2/, `${accept}: the page size stays (JSON:API's links in its own names)`);
  }
});
