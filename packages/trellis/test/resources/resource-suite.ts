/**
 * The resource API's HTTP behaviour, run against every database backend (SQLite and PostgreSQL):
 * formats, negotiation, Link, validation, merge-patch, conditional requests, filters, pagination,
 * stage and query events. Each test gets a fresh database.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { subscribe, type DbQueryEvent, type ResourceStageEvent, type ResourceStagesEvent } from '../../src/observe/channels.ts';
import { appPerSuite, seen, type Backend } from './fixtures.ts';

const DOC_LINK = '<http://localhost:80/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"';
const SUPPORTED = '"application/ld+json", "application/json", "application/hal+json", "application/vnd.api+json"';

export function resourceSuite(backend: Backend, skip: string | false): void {
  describe(`resources on ${backend.name}`, { skip }, () => {
    const current = appPerSuite(backend);
    const get = (url: string, headers: Record<string, string> = {}) => current().inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body: unknown, contentType = 'application/ld+json', headers: Record<string, string> = {}) =>
      current().inject({ method, url, payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': contentType, ...headers } });

    test('an item in JSON-LD: context, id, type, relations as IRIs', async () => {
      const res = await get('/novels/1');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
      assert.deepEqual(res.json(), {
        '@context': '/contexts/Novel', '@id': '/novels/1', '@type': 'Novel',
        id: 1, title: 'Dune', summary: 'Spice and sand', writer: '/writers/1', publishedOn: '1965-08-01', price: 9.99, available: true,
      });
      assert.match(String(res.headers.vary), /\bAccept\b/);
      assert.equal(res.headers.link, DOC_LINK);
    });

    test('a URL extension wins over Accept; plain JSON has no JSON-LD keys', async () => {
      const res = await get('/novels/2.json', { accept: 'application/ld+json' });
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(res.json(), { id: 2, title: 'Dune Messiah', summary: null, writer: '/writers/1', publishedOn: '1969-10-15', price: 8.5, available: false });
      assert.equal((await get('/novels.jsonld', { accept: 'application/json' })).json()['@type'], 'Collection');
    });

    test('Accept with q-values and specificity picks the format', async () => {
      const hal = await get('/novels/1', { accept: 'application/json;q=0.5, application/hal+json' });
      assert.equal(hal.headers['content-type'], 'application/hal+json; charset=utf-8');
      const specific = await get('/novels/1', { accept: 'application/*;q=0.2, application/vnd.api+json;q=0.9' });
      assert.equal(specific.headers['content-type'], 'application/vnd.api+json', 'JSON:API 1.1: no media type parameter');
      const any = await get('/novels/1', { accept: 'text/html;q=0.9, */*;q=0.1' });
      assert.equal(any.headers['content-type'], 'application/ld+json; charset=utf-8');
    });

    test('406 for an unsupported Accept, 404 for an unknown extension, both with Vary and Link', async () => {
      const res = await get('/novels/1', { accept: 'text/plain' });
      assert.equal(res.statusCode, 406);
      assert.equal(res.json().detail, `Requested format "text/plain" is not supported. Supported MIME types are ${SUPPORTED}.`);
      assert.match(String(res.headers.vary), /\bAccept\b/);
      assert.equal(res.headers.link, DOC_LINK);
      const ext = await get('/novels/1.xml');
      assert.equal(ext.statusCode, 404);
      assert.equal(ext.json().detail, 'Format "xml" is not supported.');
      assert.equal((await get('/novels.csv')).statusCode, 404);
    });

    test('JSON-LD errors are hydra:Error problem documents, in unprefixed terms', async () => {
      const res = await get('/novels/999', { accept: 'application/ld+json' });
      assert.equal(res.statusCode, 404);
      assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
      const body = res.json();
      assert.equal(body['@context'], '/contexts/Error');
      // Unprefixed, as collections are (API Platform 4); /contexts/Error maps them to Hydra.
      assert.equal(body['@type'], 'Error');
      assert.equal(body.title, 'Not Found');
      assert.equal(body.description, 'Item not found for "/novels/999".');
      assert.equal(body['hydra:title'], undefined);
      assert.equal(body.status, 404);
      assert.equal(body.detail, 'Item not found for "/novels/999".');
      assert.equal((await get('/novels/abc')).statusCode, 404);
    });

    test('a collection: members, totalItems, view, search template', async () => {
      const res = await get('/novels?page=2');
      const body = res.json();
      assert.equal(body['@type'], 'Collection');
      assert.equal(body.totalItems, 5);
      assert.deepEqual(body.member.map((m: { id: number }) => m.id), [4, 5]);
      assert.deepEqual(body.view, { '@id': '/novels?page=2', '@type': 'PartialCollectionView', first: '/novels?page=1', last: '/novels?page=2', previous: '/novels?page=1' });
      assert.match(body.search.template, /^\/novels\{\?title,summary,writer,price\[lt\],/);
      assert.equal(res.headers.link, DOC_LINK);
    });

    test('plain JSON collections carry RFC 8288 pagination links, in the format the extension chose', async () => {
      const res = await get('/novels.json?page=2');
      assert.deepEqual(res.json().map((n: { id: number }) => n.id), [4, 5]);
      assert.equal(
        res.headers.link,
        `${DOC_LINK}, <http://localhost:80/novels.json?page=1>; rel="first", <http://localhost:80/novels.json?page=2>; rel="last", <http://localhost:80/novels.json?page=1>; rel="prev"`,
      );
      // Following them stays in that format; without an extension the links have none.
      const next = await current().inject({ url: '/novels.json?page=1' });
      assert.match(String(next.headers['content-type']), /^application\/json/);
      assert.match(String(next.headers.link), /<http:\/\/localhost:80\/novels\.json\?page=2>; rel="next"/);
      const ld = (await get('/novels.jsonld?itemsPerPage=2')).json();
      assert.deepEqual([ld.view['@id'], ld.view.next], ['/novels.jsonld?itemsPerPage=2&page=1', '/novels.jsonld?itemsPerPage=2&page=2']);
      assert.equal((await get('/novels?itemsPerPage=2')).json().view.next, '/novels?itemsPerPage=2&page=2');
    });

    test('partial pagination skips COUNT: one query per page, no last page', async () => {
      const queries: DbQueryEvent[] = [];
      const off = subscribe('dbQuery', (e) => queries.push(e));
      const res = await get('/writers');
      off();
      const body = res.json();
      assert.equal(body.totalItems, undefined);
      // As API Platform: no first or last without a known last page.
      assert.deepEqual(body.view, { '@id': '/writers?page=1', '@type': 'PartialCollectionView', next: '/writers?page=2' });
      assert.equal(queries.length, 1);
      assert.match(queries[0]!.sql, /limit/i);
      const partial = await get('/novels?partial=true&page=2');
      assert.equal(partial.json().totalItems, undefined);
      assert.equal(partial.json().view.next, undefined);
    });

    test('a page is two queries whatever its size (no N+1); embedding adds one per relation', async () => {
      const queries: DbQueryEvent[] = [];
      const off = subscribe('dbQuery', (e) => queries.push(e));
      await get('/novels?itemsPerPage=5');
      assert.equal(queries.length, 2);
      queries.length = 0;
      const embedded = (await get('/novels?itemsPerPage=5&embed=writer')).json();
      off();
      assert.equal(queries.length, 3);
      assert.deepEqual(embedded.member[0].writer, { '@context': '/contexts/Writer', '@id': '/writers/1', '@type': 'Writer', id: 1, name: 'Frank Herbert' });
      assert.ok(queries.every((q) => q.durationMs >= 0 && Array.isArray(q.parameters)));
    });

    test('every stage publishes its timing and outcome', async () => {
      const events: ResourceStageEvent[] = [];
      const off = subscribe('resourceStage', (e) => events.push(e));
      await get('/novels/1');
      await get('/novels/999');
      off();
      const first = events.filter((e) => e.request?.url === '/novels/1');
      assert.deepEqual(first.map((e) => [e.stage, e.outcome]), [
        ['negotiate', 'ok'], ['provide', 'ok'], ['security', 'skipped'], ['deserialize', 'skipped'], ['post_denormalize', 'skipped'],
        ['validate', 'skipped'], ['process', 'skipped'], ['serialize', 'ok'],
      ]);
      assert.ok(first.every((e) => e.resource === 'Novel' && e.operation === 'get' && e.durationMs >= 0));
      const missing = events.filter((e) => e.request?.url === '/novels/999');
      assert.deepEqual(missing.at(-1)!.stage, 'provide');
      assert.equal(missing.at(-1)!.outcome, 'error');
    });

    test('the whole run is published once on trellis:resource:stages, the same stages as one by one', async () => {
      const each: ResourceStageEvent[] = [];
      const runs: ResourceStagesEvent[] = [];
      const offEach = subscribe('resourceStage', (e) => each.push(e));
      const offRuns = subscribe('resourceStages', (e) => runs.push(e));
      await get('/novels/1');
      await get('/novels/999');
      offEach();
      offRuns();
      const run = runs.find((e) => e.request?.url === '/novels/1')!;
      assert.deepEqual(run.names, each.filter((e) => e.request?.url === '/novels/1').map((e) => e.stage));
      assert.deepEqual(run.outcomes, each.filter((e) => e.request?.url === '/novels/1').map((e) => e.outcome));
      assert.ok(run.startUs.every((t, i) => i === 0 || t >= run.startUs[i - 1]!) && run.durationUs.every((d) => d >= 0));
      assert.equal(typeof run.detail.provider, 'string');
      const failed = runs.filter((e) => e.request?.url === '/novels/999');
      assert.equal(failed.length, 1);
      assert.deepEqual([failed[0]!.names.at(-1), failed[0]!.outcomes.at(-1)], ['provide', 'error']);
    });

    describe('filters', () => {
      const ids = async (url: string) => (await get(url)).json().member.map((m: { id: number }) => m.id);
      test('search: case-insensitive partial, word_start, relation by IRI or id; LIKE wildcards are literal', async () => {
        assert.deepEqual(await ids('/novels?title=dUNE'), [1, 2]);
        assert.deepEqual(await ids('/novels?summary=util'), []);
        assert.deepEqual(await ids('/novels?summary=utop'), [3]);
        assert.deepEqual(await ids('/novels?writer=/writers/2&itemsPerPage=5'), [3, 4, 5]);
        assert.deepEqual(await ids('/novels?writer=1'), [1, 2]);
        assert.deepEqual(await ids('/novels?title=100%25'), [5]);
        assert.deepEqual(await ids('/novels?title=_'), [5]);
        assert.deepEqual(await ids('/novels?title[]=messiah&title[]=wizard'), [2, 4]);
        assert.equal((await get('/novels?writer=/books/1')).json().detail, 'Invalid value "/books/1" for the query parameter "writer": expected an IRI of Writer.');
      });
      test('search: a NUL in the text is a 400 on either database (SQLite matched every row, PostgreSQL answered 422)', async () => {
        for (const url of ['/novels?title=%00', '/novels?title=du%00ne', '/novels?title[]=dune&title[]=%00']) {
          const res = await get(url);
          assert.equal(res.statusCode, 400, url);
          assert.equal(res.json().code, 'invalid_filter', url);
        }
        assert.equal((await get('/novels?title=%00')).json().detail, 'Invalid value "\u0000" for the query parameter "title": expected text without a NUL character.');
      });
      test('range, date, boolean, exists', async () => {
        assert.deepEqual(await ids('/novels?price[gt]=9&price[lte]=12'), [1, 3]);
        assert.deepEqual(await ids('/novels?price[between]=7..9'), [2, 4]);
        assert.deepEqual(await ids('/novels?publishedOn[after]=1968-11-01&publishedOn[strictly_before]=1974-05-01'), [2, 4]);
        assert.deepEqual(await ids('/novels?publishedOn[strictly_after]=1969-10-15'), [3, 5]);
        assert.deepEqual(await ids('/novels?available=false'), [2, 5]);
        assert.deepEqual(await ids('/novels?exists[summary]=false'), [2]);
      });
      test('order, several keys, default tie-break on id', async () => {
        assert.deepEqual(await ids('/novels?order[publishedOn]=desc&itemsPerPage=5'), [5, 3, 2, 4, 1]);
        assert.deepEqual(await ids('/novels?order[title]=asc&itemsPerPage=5'), [5, 4, 1, 2, 3]);
      });
      test('a query compiled for one request serves later ones of its shape with their own values and page', async () => {
        const page = async (url: string) => {
          const body = (await get(url)).json();
          return { ids: body.member.map((m: { id: number }) => m.id), total: body.totalItems };
        };
        assert.deepEqual(await page('/novels?title=dune&itemsPerPage=5'), { ids: [1, 2], total: 2 });
        assert.deepEqual(await page('/novels?title=wizard&itemsPerPage=5'), { ids: [4], total: 1 });
        assert.deepEqual(await page('/novels?itemsPerPage=1&title=dune&page=2'), { ids: [2], total: 2 });
        assert.deepEqual(await page('/novels?price[between]=7..9&itemsPerPage=5'), { ids: [2, 4], total: 2 });
        assert.deepEqual(await page('/novels?price[between]=9..12.5&itemsPerPage=5'), { ids: [1, 3], total: 2 });
        assert.deepEqual(await page('/novels?exists[summary]=false&itemsPerPage=5'), { ids: [2], total: 1 });
        assert.deepEqual(await page('/novels?exists[summary]=true&itemsPerPage=5'), { ids: [1, 3, 4, 5], total: 4 });
        assert.deepEqual(await page('/novels?order[price]=asc&itemsPerPage=5'), { ids: [4, 2, 1, 3, 5], total: 5 });
        assert.deepEqual(await page('/novels?order[price]=desc&itemsPerPage=5'), { ids: [5, 3, 1, 2, 4], total: 5 });
        assert.deepEqual(await page('/novels?itemsPerPage=2&page=3'), { ids: [5], total: 5 });
        assert.deepEqual(await page('/novels?itemsPerPage=2&page=1'), { ids: [1, 2], total: 5 });
        assert.equal((await get('/novels/3')).json().title, 'The Dispossessed');
        assert.equal((await get('/novels/4')).json().title, 'A Wizard of Earthsea');
      });
      test('bad filter values are 400s with exact messages, never SQL errors', async () => {
        const cases: [string, string][] = [
          ['/novels?price[gt]=cheap', 'Invalid value "cheap" for the query parameter "price[gt]": expected a number.'],
          ['/novels?price[between]=1..x', 'Invalid value "x" for the query parameter "price[between]": expected a number.'],
          ['/novels?price[between]=5', 'Invalid value "5" for the query parameter "price[between]": expected two numbers separated by "..", such as 10..20.'],
          ['/novels?publishedOn[after]=yesterday', 'Invalid value "yesterday" for the query parameter "publishedOn[after]": expected a date such as 2024-01-31.'],
          ['/novels?available=maybe', 'Invalid value "maybe" for the query parameter "available": expected true, false, 1 or 0.'],
          ['/novels?order[title]=sideways', 'Invalid value "sideways" for the query parameter "order[title]": expected asc or desc.'],
          ['/novels?exists[summary]=2', 'Invalid value "2" for the query parameter "exists[summary]": expected true, false, 1 or 0.'],
        ];
        for (const [url, detail] of cases) {
          const res = await get(url);
          assert.equal(res.statusCode, 400, url);
          assert.equal(res.json().detail, detail, url);
        }
      });
    });

    describe('writes', () => {
      const novel = { title: 'The Lathe of Heaven', writer: '/writers/2', publishedOn: '1971-10-01', price: 10, available: true };

      test('POST creates: 201, Location, read-only members ignored', async () => {
        const res = await send('POST', '/novels', { ...novel, id: 999, '@context': '/contexts/Novel' });
        assert.equal(res.statusCode, 201);
        const body = res.json();
        assert.equal(body.title, 'The Lathe of Heaven');
        assert.equal(body.writer, '/writers/2');
        assert.notEqual(body.id, 999);
        assert.equal(res.headers.location, `/novels/${body.id}`);
        assert.equal((await get(`/novels/${body.id}.json`)).json().summary, null);
      });

      test('422 lists every violation: missing, wrong type, unknown field, bad IRI, rule', async () => {
        const res = await send('POST', '/novels', { title: 5, writer: '/books/1', publishedOn: 'soon', price: -1, colour: 'red' });
        assert.equal(res.statusCode, 422);
        const body = res.json();
        assert.deepEqual(
          body.violations.map((v: { propertyPath: string; code: string }) => `${v.propertyPath}:${v.code}`).sort(),
          ['available:required', 'colour:unknown_field', 'price:range', 'publishedOn:format', 'title:type', 'writer:invalid_iri'],
        );
        assert.equal(body.violations.find((v: { propertyPath: string }) => v.propertyPath === 'colour').message, 'This field was not expected.');
        assert.equal(body.violations.find((v: { propertyPath: string }) => v.propertyPath === 'writer').message, 'Invalid IRI "/books/1": expected an IRI of a Writer.');
        assert.match(body.detail, /^available: This value should not be blank\.\n/);
        const ghost = await send('POST', '/novels', { ...novel, title: 'Ghost', writer: '/writers/77' });
        assert.deepEqual(ghost.json().violations, [{ propertyPath: 'writer', message: 'Item not found for "/writers/77".', code: 'not_found' }]);
        const rule = await send('POST', '/novels', { ...novel, title: ' Spaced' });
        assert.deepEqual(rule.json().violations, [{ propertyPath: 'title', message: 'This value should not start with a space.', code: 'trim' }]);
        const dup = await send('POST', '/novels', { ...novel, title: 'Dune' });
        assert.equal(dup.statusCode, 422);
        assert.deepEqual(dup.json().violations, [{ propertyPath: 'title', message: 'This value is already used.', code: 'unique' }]);
      });

      test('bodies: malformed JSON 400, a non-object 400, unsupported Content-Type 415', async () => {
        const broken = await send('POST', '/novels', '{"title":');
        assert.equal(broken.statusCode, 400);
        const array = await send('POST', '/novels', '[1]');
        assert.equal(array.statusCode, 400);
        assert.equal(array.json().detail, 'The request body must be a JSON-LD object.');
        for (const patch of ['[]', 'null', '5', '"x"']) {
          const res = await send('PATCH', '/novels/1', patch, 'application/merge-patch+json', { 'x-role': 'editor' });
          assert.deepEqual([res.statusCode, res.json().detail], [400, 'The request body must be a JSON merge patch (RFC 7396): an object of the fields to change.'], patch);
        }
        const text = await send('POST', '/novels', 'title=x', 'text/plain');
        assert.equal(text.statusCode, 415);
        const patchJson = await send('PATCH', '/novels/1', { price: 1 }, 'application/json', { 'x-role': 'editor' });
        assert.equal(patchJson.statusCode, 415);
        assert.equal(patchJson.json().detail, 'The content-type "application/json" is not supported. Supported MIME types are "application/merge-patch+json", "application/vnd.api+json".');
        // RFC 5789 §2.2: a PATCH's 415 names the patch formats in Accept-Patch; a POST's has none.
        assert.equal(patchJson.headers['accept-patch'], 'application/merge-patch+json, application/vnd.api+json');
        assert.equal(text.headers['accept-patch'], undefined);
        // A Content-Type Fastify cannot even parse is refused before the route reads it: the 415
        // still names what this route reads, not every type of the app.
        for (const contentType of ['application/json, text/plain', 'application/xml']) {
          const odd = await send('PATCH', '/novels/1', '{}', contentType, { 'x-role': 'editor' });
          assert.equal(odd.statusCode, 415, contentType);
          assert.equal(odd.json().detail, `The content-type "${contentType}" is not supported. Supported MIME types are "application/merge-patch+json", "application/vnd.api+json".`, contentType);
          assert.equal(odd.headers['accept-patch'], 'application/merge-patch+json, application/vnd.api+json', contentType);
        }
      });

      test('PATCH merges (RFC 7396): null removes, others keep; security sees an unmodified previous object', async () => {
        seen.length = 0;
        const denied = await send('PATCH', '/novels/3', { price: 1 }, 'application/merge-patch+json');
        assert.equal(denied.statusCode, 401);
        const res = await send('PATCH', '/novels/3', { price: 13.5, summary: null }, 'application/merge-patch+json', { 'x-role': 'editor' });
        assert.equal(res.statusCode, 200);
        assert.deepEqual({ ...(res.json() as object), '@context': undefined }, { '@context': undefined, '@id': '/novels/3', '@type': 'Novel', id: 3, title: 'The Dispossessed', summary: null, writer: '/writers/2', publishedOn: '1974-05-01', price: 13.5, available: true });
        const { object, previousObject } = seen[0] as { object: Record<string, unknown>; previousObject: Record<string, unknown> };
        assert.equal(previousObject.price, 12);
        assert.equal(previousObject.summary, 'An ambiguous utopia');
        assert.equal(object.price, 13.5);
        const forbidden = await send('PATCH', '/novels/3', { title: 'Forbidden title' }, 'application/merge-patch+json', { 'x-role': 'editor' });
        assert.equal(forbidden.statusCode, 401);
        const wrongType = await send('PATCH', '/novels/3', { price: 'free' }, 'application/merge-patch+json', { 'x-role': 'editor' });
        assert.equal(wrongType.statusCode, 422);
        assert.deepEqual(wrongType.json().violations, [{ propertyPath: 'price', message: 'This value should be of type number.', code: 'type' }]);
      });

      test('ETag and 304 on GET; If-Match on writes: 412 when stale', async () => {
        const first = await get('/novels/4');
        const etag = first.headers.etag as string;
        assert.match(etag, /^"[\w-]{27}"$/);
        const again = await get('/novels/4', { 'if-none-match': etag });
        assert.equal(again.statusCode, 304);
        assert.equal(again.body, '');
        assert.equal(again.headers.etag, etag);
        assert.equal((await get('/novels/4', { 'if-none-match': '"other"' })).statusCode, 200);
        const collection = await get('/novels');
        assert.equal((await get('/novels', { 'if-none-match': collection.headers.etag as string })).statusCode, 304);

        const put = { title: 'A Wizard of Earthsea', summary: 'Wizards', writer: '/writers/2', publishedOn: '1968-11-01', price: 7.25, available: true };
        const stale = await send('PUT', '/novels/4', put, 'application/ld+json', { 'if-match': '"stale"' });
        assert.equal(stale.statusCode, 412);
        assert.equal(stale.json().detail, 'The "If-Match" precondition failed: "/novels/4" has changed since it was read.');
        const jsonEtag = (await get('/novels/4.json')).headers.etag as string;
        const fresh = await send('PUT', '/novels/4', put, 'application/ld+json', { 'if-match': jsonEtag });
        assert.equal(fresh.statusCode, 200);
        assert.equal(fresh.json().summary, 'Wizards');
        const replay = await send('PUT', '/novels/4', put, 'application/ld+json', { 'if-match': etag });
        assert.equal(replay.statusCode, 412);

        // RFC 9110 §13.1.2: an If-None-Match that matches refuses a write (412), `*` whenever the item exists.
        const current = (await get('/novels/4')).headers.etag as string;
        for (const [method, body, header] of [['PUT', { ...put, price: 1 }, '*'], ['PUT', { ...put, price: 1 }, `"x", ${current}`], ['DELETE', undefined, '*']] as const) {
          const refused = await send(method, '/novels/4', body, 'application/ld+json', { 'if-none-match': header });
          assert.equal(refused.statusCode, 412, `${method} If-None-Match: ${header}`);
          assert.equal(refused.json().detail, 'The "If-None-Match" precondition failed: "/novels/4" has a current representation it names.');
        }
        assert.equal((await get('/novels/4')).json().price, 7.25, 'nothing was written');
        const other = await send('PUT', '/novels/4', { ...put, price: 8 }, 'application/ld+json', { 'if-none-match': '"not-this-one"' });
        assert.equal(other.statusCode, 200);
        // §13.1.1: a false If-Match refuses a read as well; a true one serves it.
        const read = await get('/novels/4', { 'if-match': '"stale"' });
        assert.equal(read.statusCode, 412);
        assert.equal(read.json().detail, 'The "If-Match" precondition failed: "/novels/4" has changed since it was read.');
        assert.equal((await get('/novels/4', { 'if-match': other.headers.etag as string })).statusCode, 200);
      });

      test('PUT replaces: members left out become null', async () => {
        const res = await send('PUT', '/novels/1', { title: 'Dune', writer: '/writers/1', publishedOn: '1965-08-01', price: 9.99, available: true });
        assert.equal(res.statusCode, 200);
        assert.equal(res.json().summary, null);
      });

      test('DELETE: 204, then 404; a still-referenced item is a 409', async () => {
        const created = (await send('POST', '/novels', { title: 'Doomed', writer: '/writers/3', publishedOn: '2020-01-01', price: 1, available: false })).json();
        const res = await current().inject({ method: 'DELETE', url: `/novels/${created.id}` });
        assert.equal(res.statusCode, 204);
        assert.equal(res.body, '');
        assert.equal((await get(`/novels/${created.id}`)).statusCode, 404);
        const referenced = await current().inject({ method: 'DELETE', url: '/writers/1' });
        assert.equal(referenced.statusCode, 409);
        assert.equal(referenced.json().detail, '"/writers/1" cannot be deleted: other resources still reference it.');
      });

      test('HAL and JSON:API bodies are accepted for creation', async () => {
        const hal = await send('POST', '/novels', { title: 'Via HAL', publishedOn: '2020-01-01', price: 1, available: true, _links: { writer: { href: '/writers/1' } } }, 'application/hal+json', { accept: 'application/hal+json' });
        assert.equal(hal.statusCode, 201, hal.body);
        assert.equal(hal.json()._links.writer.href, '/writers/1');
        // Links of another shape are refused, not dropped (the relation would silently not change).
        const novel = { title: 'Bad HAL', publishedOn: '2020-01-01', price: 1, available: true };
        for (const [links, detail] of [
          ['x', 'The request body must be a HAL object whose "_links" is an object of links.'],
          [[{ href: '/writers/1' }], 'The request body must be a HAL object whose "_links" is an object of links.'],
          [null, 'The request body must be a HAL object whose "_links" is an object of links.'],
          [{ writer: '/writers/1' }, 'The request body must be a HAL object whose "_links.writer" is a link with a string "href".'],
          [{ writer: [{ href: '/writers/1' }] }, 'The request body must be a HAL object whose "_links.writer" is a link with a string "href".'],
          [{ writer: { href: 1 } }, 'The request body must be a HAL object whose "_links.writer" is a link with a string "href".'],
        ] as const) {
          const refused = await send('POST', '/novels', { ...novel, _links: links }, 'application/hal+json', { accept: 'application/hal+json' });
          assert.deepEqual([refused.statusCode, refused.json().detail], [400, detail], JSON.stringify(links));
        }
        // Links the resource has no relation for (self, curies) are left alone, as before.
        const extra = await send('POST', '/novels', { ...novel, _links: { self: { href: '/novels/x' }, writer: { href: '/writers/2' } } }, 'application/hal+json', { accept: 'application/hal+json' });
        assert.equal(extra.statusCode, 201, extra.body);
        assert.equal(extra.json()._links.writer.href, '/writers/2');
        const api = await send(
          'POST',
          '/novels',
          { data: { type: 'Novel', attributes: { title: 'Via JSON:API', publishedOn: '2020-01-01', price: 1, available: true }, relationships: { writer: { data: { type: 'Writer', id: '2' } } } } },
          'application/vnd.api+json',
          { accept: 'application/vnd.api+json' },
        );
        assert.equal(api.statusCode, 201, api.body);
        assert.deepEqual(api.json().data.relationships, { writer: { data: { type: 'Writer', id: '2' } } });
      });
    });

    test('the entrypoint links every collection; every response carries the Link header', async () => {
      const res = await get('/');
      assert.deepEqual(res.json(), { '@context': '/contexts/Entrypoint', '@id': '/', '@type': 'Entrypoint', writer: '/writers', novel: '/novels' });
      assert.equal(res.headers.link, DOC_LINK);
      for (const url of ['/nowhere', '/contexts/Novel', '/contexts/Nope']) assert.equal((await get(url)).headers.link, DOC_LINK, url);
      const preflight = await current().inject({ method: 'OPTIONS', url: '/novels', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } });
      assert.equal(preflight.headers.link, undefined);
    });
  });
}
