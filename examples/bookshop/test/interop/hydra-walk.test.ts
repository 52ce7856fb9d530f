/**
 * A Hydra walk as a Hydra client makes it, with a real JSON-LD processor (jsonld.js) over HTTP:
 * the apiDocumentation link of any response, the entrypoint it names, a collection link, then the
 * collection's view from first to last, every term expanded through the contexts the server
 * serves. (alcaeus, the Hydra client the issue names, drives the same server in
 * alcaeus-client.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsonld from 'jsonld';
import { runningBookshop } from './running-bookshop.ts';

const shop = runningBookshop();
const HYDRA = 'http://www.w3.org/ns/hydra/core#';
const fetched: string[] = [];

/** Contexts are fetched from the server like any client would (never from elsewhere). */
const documentLoader = async (url: string) => {
  assert.ok(url.startsWith(shop.url()), `only the server's own contexts are loaded: ${url}`);
  fetched.push(new URL(url).pathname);
  const res = await fetch(url, { headers: { accept: 'application/ld+json' } });
  assert.equal(res.status, 200, url);
  return { contextUrl: undefined, documentUrl: url, document: await res.json() };
};

async function load(url: string): Promise<{ node: any; link: string | null }> {
  const res = await fetch(url, { headers: { accept: 'application/ld+json' } });
  assert.equal(res.status, 200, url);
  const [node] = (await jsonld.expand((await res.json()) as object, { base: url, documentLoader })) as any[];
  return { node, link: res.headers.get('link') };
}
const iri = (values: any[] | undefined) => values?.[0]?.['@id'] as string | undefined;

test('apiDocumentation → entrypoint → collection → view, first to last', async () => {
  const { link } = await load(`${shop.url()}/books/1`);
  const docsUrl = /<([^>]+)>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/.exec(link ?? '')?.[1];
  assert.equal(docsUrl, `${shop.url()}/docs.jsonld`);
  const { node: docs } = await load(docsUrl!);
  assert.deepEqual(docs['@type'], [`${HYDRA}ApiDocumentation`]);
  const entrypointUrl = new URL(iri(docs[`${HYDRA}entrypoint`])!, docsUrl).href;
  const { node: entrypoint } = await load(entrypointUrl);
  // The entrypoint's class says which of its properties are collection links, and of what.
  const entrypointClass = docs[`${HYDRA}supportedClass`].find((c: any) => c['@id'] === entrypoint['@type'][0]);
  const reviewsLink = entrypointClass[`${HYDRA}supportedProperty`].map((p: any) => p[`${HYDRA}property`][0]).find((p: any) => p['@id'].endsWith('/review'));
  const reviewsUrl = iri(entrypoint[reviewsLink['@id']])!;
  assert.equal(reviewsUrl, `${shop.url()}/reviews`);

  let { node: page } = await load(`${reviewsUrl}?itemsPerPage=200`);
  assert.deepEqual(page['@type'], [`${HYDRA}Collection`]);
  const total = page[`${HYDRA}totalItems`][0]['@value'] as number;
  const view = page[`${HYDRA}view`][0];
  assert.deepEqual(view['@type'], [`${HYDRA}PartialCollectionView`]);
  const last = iri(view[`${HYDRA}last`]);
  let members = page[`${HYDRA}member`].length as number;
  let pages = 1;
  for (let next = iri(page[`${HYDRA}view`][0][`${HYDRA}next`]); next !== undefined; next = iri(page[`${HYDRA}view`][0][`${HYDRA}next`])) {
    ({ node: page } = await load(next));
    members += page[`${HYDRA}member`].length;
    pages++;
    assert.ok(pages < 20, 'the walk ends');
  }
  assert.equal(page[`${HYDRA}view`][0]['@id'], last, 'it ends on the last page');
  assert.equal(iri(page[`${HYDRA}view`][0][`${HYDRA}previous`])?.endsWith(`page=${pages - 1}`), true);
  assert.equal(members, total, 'every member once');
  assert.deepEqual([...new Set(fetched)].sort(), ['/contexts/Book', '/contexts/Entrypoint', '/contexts/Review'], 'the documentation carries its own context');
});

test('the collection\'s search template expands to IRIs a client can fill', async () => {
  const { node } = await load(`${shop.url()}/books?itemsPerPage=1`);
  const search = node[`${HYDRA}search`][0];
  assert.deepEqual(search[`${HYDRA}variableRepresentation`], [{ '@id': `${HYDRA}BasicRepresentation` }]);
  const template = search[`${HYDRA}template`][0]['@value'] as string;
  assert.match(template, /^\/books\{\?title,isbn,author,/);
  const mapping = search[`${HYDRA}mapping`].find((m: any) => m[`${HYDRA}variable`][0]['@value'] === 'title');
  assert.deepEqual(mapping[`${HYDRA}property`], [{ '@id': `${shop.url()}/docs.jsonld#Book/title` }]);
});

test('an error is a hydra:Error in the same terms, whatever the status', async () => {
  for (const [path, status] of [['/books/0', 404], ['/books?page=0', 400], ['/users/1', 401]] as const) {
    const res = await fetch(`${shop.url()}${path}`, { headers: { accept: 'application/ld+json' } });
    assert.equal(res.status, status, path);
    const [node] = (await jsonld.expand((await res.json()) as object, { base: `${shop.url()}${path}`, documentLoader })) as any[];
    assert.deepEqual(node['@type'], [`${HYDRA}Error`], path);
    assert.equal(typeof node[`${HYDRA}description`][0]['@value'], 'string');
    assert.equal(typeof node[`${HYDRA}title`][0]['@value'], 'string');
  }
});
