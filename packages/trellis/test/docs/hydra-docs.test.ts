/**
 * The Hydra documentation at /docs.jsonld: valid JSON-LD, the target of every response's
 * apiDocumentation link, and consistent with the OpenAPI document (same classes, properties and
 * operations) and with the JSON-LD contexts (the property IRIs items expand to are documented).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import jsonld from 'jsonld';
import type { FastifyInstance } from 'fastify';
import { bookshopApp } from './bookshop-app.ts';

const ORIGIN = 'http://localhost:80';
const VOCAB = `${ORIGIN}/docs.jsonld#`;
const HYDRA = 'http://www.w3.org/ns/hydra/core#';

let app: FastifyInstance;
let hydra: any;
let openapi: any;
before(async () => {
  app = await bookshopApp();
  const res = await app.inject({ url: '/docs.jsonld' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
  hydra = res.json();
  openapi = (await app.inject({ url: '/docs.json' })).json();
});
after(() => app.close());

const documentLoader = async (url: string) => {
  const res = await app.inject({ url: new URL(url).pathname, headers: { accept: 'application/ld+json' } });
  assert.equal(res.statusCode, 200, url);
  return { contextUrl: undefined, documentUrl: url, document: res.json() };
};

test('every response links to it, and /docs with Accept: application/ld+json serves it too', async () => {
  for (const url of ['/books', '/docs.json', '/nowhere']) {
    const res = await app.inject({ url });
    assert.match(String(res.headers.link), /<http:\/\/localhost:80\/docs\.jsonld>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/, url);
  }
  assert.deepEqual((await app.inject({ url: '/docs', headers: { accept: 'application/ld+json' } })).json(), hydra);
});

test('one class per resource, plus the Entrypoint; properties and operations match the OpenAPI document', () => {
  // Hydra's terms unprefixed, as in collections and errors; the document's context maps them.
  assert.equal(hydra['@type'], 'ApiDocumentation');
  assert.equal(hydra['@context'].supportedClass, 'hydra:supportedClass');
  assert.deepEqual(Object.keys(hydra).filter((k) => k.startsWith('hydra:')), []);
  const classes = hydra.supportedClass;
  assert.deepEqual(classes.map((c: any) => c['@id']), ['Book', 'Author', 'Review', 'User', 'Entrypoint'].map((n) => `${VOCAB}${n}`));
  const book = classes[0];
  assert.deepEqual(
    book.supportedProperty.map((p: any) => [p.title, p.required, p.readable, p.writeable]),
    [['id', true, true, false], ['isbn', true, true, true], ['title', true, true, true], ['description', false, true, true], ['author', true, true, true], ['publicationDate', true, true, true], ['price', true, true, true]],
  );
  assert.deepEqual(book.supportedProperty[4].property, { '@id': `${VOCAB}Book/author`, '@type': 'Link', 'rdfs:label': 'author', domain: `${VOCAB}Book`, range: `${VOCAB}Author` });

  const hydraOps = new Set<string>();
  for (const c of classes) for (const op of c.supportedOperation) hydraOps.add(`${op.method} ${op.title}`);
  for (const p of classes.at(-1).supportedProperty) for (const op of p.property.supportedOperation) hydraOps.add(`${op.method} ${op.title}`);
  const openapiOps = new Set<string>();
  for (const item of Object.values(openapi.paths) as any[]) {
    for (const [method, op] of Object.entries(item) as [string, any][]) if (!['Documentation', 'JSON-LD', 'Authentication'].includes(op.tags[0])) openapiOps.add(`${method.toUpperCase()} ${op.operationId}`);
  }
  assert.deepEqual([...hydraOps].sort(), [...openapiOps].sort());

  for (const c of classes.slice(0, -1)) {
    const name = c['@id'].slice(VOCAB.length);
    const readable = c.supportedProperty.filter((p: any) => p.readable).map((p: any) => p.title);
    const writable = c.supportedProperty.filter((p: any) => p.writeable).map((p: any) => p.title);
    assert.deepEqual(Object.keys(openapi.components.schemas[name].properties), readable, name);
    // A resource without writes has no input shape in the document (unused-schemas.ts).
    assert.deepEqual(Object.keys(openapi.components.schemas[`${name}.input`]?.properties ?? {}), writable, name);
  }
});

test('it expands as JSON-LD, and every property an item expands to is a documented property', async () => {
  const [docs] = (await jsonld.expand(hydra, { base: `${ORIGIN}/docs.jsonld`, documentLoader })) as any[];
  assert.deepEqual(docs['@type'], [`${HYDRA}ApiDocumentation`]);
  const documented = new Set<string>();
  for (const c of docs[`${HYDRA}supportedClass`]) for (const p of c[`${HYDRA}supportedProperty`]) documented.add(p[`${HYDRA}property`][0]['@id']);
  assert.ok(documented.has(`${VOCAB}Book/title`));
  for (const url of ['/books/1', '/reviews/1', '/authors/1']) {
    const item = (await app.inject({ url, headers: { accept: 'application/ld+json' } })).json();
    const [node] = (await jsonld.expand(item, { base: `${ORIGIN}${url}`, documentLoader })) as any[];
    const properties = Object.keys(node).filter((k) => !k.startsWith('@'));
    assert.ok(properties.length >= 3, url);
    for (const p of properties) assert.ok(documented.has(p), `${url}: ${p} is documented`);
    assert.ok(docs[`${HYDRA}supportedClass`].some((c: any) => c['@id'] === node['@type'][0]), `${url}: its class is documented`);
  }
});

test('every relation\'s range is a documented class a client can act on, item-only ones included (Review.author → User)', async () => {
  const [docs] = (await jsonld.expand(hydra, { base: `${ORIGIN}/docs.jsonld`, documentLoader })) as any[];
  const classes = new Map<string, any>(docs[`${HYDRA}supportedClass`].map((c: any) => [c['@id'], c]));
  const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
  const links: [string, string][] = [];
  for (const c of classes.values()) {
    for (const sp of c[`${HYDRA}supportedProperty`]) {
      const property = sp[`${HYDRA}property`][0];
      if (!property['@type']?.includes(`${HYDRA}Link`) || c['@id'] === `${VOCAB}Entrypoint`) continue;
      const range = property[`${RDFS}range`][0]['@id'];
      links.push([property['@id'].slice(VOCAB.length), range.slice(VOCAB.length)]);
      const target = classes.get(range);
      assert.ok(target, `${property['@id']}: its range ${range} is a supported class`);
      // What a client holding the relation's IRI may do with it: at least read it, with what it returns.
      const get = target[`${HYDRA}supportedOperation`].find((o: any) => o[`${HYDRA}method`][0]['@value'] === 'GET');
      assert.ok(get, `${range} has a GET operation`);
      assert.deepEqual(get[`${HYDRA}returns`], [{ '@id': range }]);
    }
  }
  assert.deepEqual(links.sort(), [['Book/author', 'Author'], ['Review/author', 'User'], ['Review/book', 'Book']]);
  // User has no collection, so no entrypoint link: its class carries every operation it has.
  const user = classes.get(`${VOCAB}User`);
  assert.deepEqual(user[`${HYDRA}supportedOperation`].map((o: any) => o[`${HYDRA}title`][0]['@value']), ['getUser']);
  assert.deepEqual(user[`${HYDRA}supportedProperty`].map((p: any) => p[`${HYDRA}title`][0]['@value']), ['id', 'email']);
});
