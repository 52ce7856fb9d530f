/**
 * The JSON-LD output is real JSON-LD: documents expand with the `jsonld` processor, contexts load
 * from the app itself (through app.inject, no network), and the expanded types and ids are the
 * ones a Hydra client expects.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import jsonld from 'jsonld';
import type { FastifyInstance } from 'fastify';
import { appFor, sqliteBackend } from './fixtures.ts';

const ORIGIN = 'http://localhost:80';
/** Where relative IRIs resolve (URL resolution drops the default port). */
const BASE = 'http://localhost';
const VOCAB = `${ORIGIN}/docs.jsonld#`;
const HYDRA = 'http://www.w3.org/ns/hydra/core#';

let app: FastifyInstance;
let close: () => Promise<void>;
before(async () => {
  const opened = await sqliteBackend.open();
  close = opened.close;
  app = await appFor(opened.db);
});
after(async () => {
  await app.close();
  await close();
});

const loaded: string[] = [];
const documentLoader = async (url: string) => {
  const { pathname } = new URL(url);
  loaded.push(pathname);
  const res = await app.inject({ method: 'GET', url: pathname, headers: { accept: 'application/ld+json' } });
  assert.equal(res.statusCode, 200, `context ${url}`);
  return { contextUrl: undefined, documentUrl: url, document: res.json() };
};

async function expand(path: string, headers: Record<string, string> = {}): Promise<any[]> {
  const res = await app.inject({ method: 'GET', url: path, headers: { accept: 'application/ld+json', ...headers } });
  return jsonld.expand(res.json(), { base: `${ORIGIN}${path}`, documentLoader }) as Promise<any[]>;
}

test('an item expands to a typed node with vocabulary properties and relation IRIs', async () => {
  const [node] = await expand('/novels/1');
  assert.equal(node['@id'], `${BASE}/novels/1`);
  assert.deepEqual(node['@type'], [`${VOCAB}Novel`]);
  assert.deepEqual(node[`${VOCAB}Novel/title`], [{ '@value': 'Dune' }]);
  assert.deepEqual(node[`${VOCAB}Novel/writer`], [{ '@id': `${BASE}/writers/1` }]);
  assert.deepEqual(node[`${VOCAB}Novel/available`], [{ '@value': true }]);
  assert.ok(loaded.includes('/contexts/Novel'));
});

test('a collection expands to a hydra:Collection with members, total and view', async () => {
  const [node] = await expand('/novels?page=1&itemsPerPage=2');
  assert.equal(node['@id'], `${BASE}/novels`);
  assert.deepEqual(node['@type'], [`${HYDRA}Collection`]);
  assert.deepEqual(node[`${HYDRA}totalItems`], [{ '@value': 5 }]);
  assert.deepEqual(node[`${HYDRA}member`].map((m: any) => m['@id']), [`${BASE}/novels/1`, `${BASE}/novels/2`]);
  assert.deepEqual(node[`${HYDRA}member`][0]['@type'], [`${VOCAB}Novel`]);
  const [view] = node[`${HYDRA}view`];
  assert.deepEqual(view['@type'], [`${HYDRA}PartialCollectionView`]);
  assert.deepEqual(view[`${HYDRA}next`], [{ '@id': `${BASE}/novels?page=2&itemsPerPage=2` }]);
  const [search] = node[`${HYDRA}search`];
  assert.deepEqual(search['@type'], [`${HYDRA}IriTemplate`]);
  // The template's representation and each mapping's property expand to IRIs (issue 19, item 2).
  assert.deepEqual(search[`${HYDRA}variableRepresentation`], [{ '@id': `${HYDRA}BasicRepresentation` }]);
  const title = search[`${HYDRA}mapping`].find((m: any) => m[`${HYDRA}variable`][0]['@value'] === 'title');
  assert.deepEqual(title[`${HYDRA}property`], [{ '@id': `${VOCAB}Novel/title` }]);
});

test('embedded relations expand as nested nodes with their own context', async () => {
  const [node] = await expand('/novels/3?embed=writer');
  const [writer] = node[`${VOCAB}Novel/writer`];
  assert.equal(writer['@id'], `${BASE}/writers/2`);
  assert.deepEqual(writer['@type'], [`${VOCAB}Writer`]);
  assert.deepEqual(writer[`${VOCAB}Writer/name`], [{ '@value': 'Ursula K. Le Guin' }]);
});

test('the entrypoint and errors expand too', async () => {
  const [entry] = await expand('/');
  assert.deepEqual(entry['@type'], [`${VOCAB}Entrypoint`]);
  assert.deepEqual(entry[`${VOCAB}Entrypoint/novel`], [{ '@id': `${BASE}/novels` }]);
  const [error] = await expand('/novels/999');
  assert.deepEqual(error['@type'], [`${HYDRA}Error`]);
  assert.deepEqual(error[`${HYDRA}description`], [{ '@value': 'Item not found for "/novels/999".' }]);
  // Unprefixed in the document, Hydra once expanded: the same terms as a collection's.
  assert.deepEqual(error[`${HYDRA}title`], [{ '@value': 'Not Found' }]);
  assert.deepEqual(error[`${VOCAB}detail`], [{ '@value': 'Item not found for "/novels/999".' }]);
  assert.deepEqual(error[`${VOCAB}status`], [{ '@value': 404 }]);
  // A 422 with its violations expands as well.
  const invalid = await app.inject({ method: 'POST', url: '/novels', headers: { 'content-type': 'application/ld+json', accept: 'application/ld+json' }, payload: '{}' });
  assert.equal(invalid.statusCode, 422);
  const [violations] = (await jsonld.expand(invalid.json(), { base: `${BASE}/novels`, documentLoader })) as any[];
  assert.deepEqual(violations['@type'], [`${HYDRA}Error`]);
  assert.ok(violations[`${VOCAB}violations`].length > 0);
});
