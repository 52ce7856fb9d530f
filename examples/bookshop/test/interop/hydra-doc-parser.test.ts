/**
 * API Platform's own documentation parser (@api-platform/api-doc-parser, what API Platform Admin
 * runs) reading the running bookshop's Hydra documentation: every resource with its fields,
 * types, required flags, relations and operations, found from the entrypoint as it finds them
 * on an API Platform server. The OpenAPI parser of the same package agrees on the resources.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHydraDocumentation, parseOpenApi3Documentation, type Resource } from '@api-platform/api-doc-parser';
import { runningBookshop } from './running-bookshop.ts';

const shop = runningBookshop();
const XSD = 'http://www.w3.org/2001/XMLSchema#';

const fieldsOf = (r: Resource) => (r.fields ?? []).map((f) => ({ name: f.name, range: f.range, required: f.required, reference: (f.reference as Resource | null)?.name ?? null }));

test('every resource behind the entrypoint, with its fields, relations and operations', async () => {
  const { api, status } = await parseHydraDocumentation(shop.url());
  assert.equal(status, 200);
  assert.equal(api.title, 'Bookshop');
  const vocab = `${shop.url()}/docs.jsonld#`;
  // The parser finds resources through the Entrypoint's collection links (it says so itself:
  // "make sure your API resource has at least one GET collection operation declared"), as it
  // does on API Platform: User, readable item by item only, is a class of the documentation
  // (hydra-docs.test.ts) but no resource of the parser's. Review.author's range still names it.
  const resources = api.resources ?? [];
  assert.deepEqual(resources.map((r) => [r.name, r.url, r.id]), [
    ['books', `${shop.url()}/books`, `${vocab}Book`],
    ['authors', `${shop.url()}/authors`, `${vocab}Author`],
    ['reviews', `${shop.url()}/reviews`, `${vocab}Review`],
  ]);
  const [books, authors, reviews] = resources as [Resource, Resource, Resource];
  assert.deepEqual(fieldsOf(books), [
    { name: 'id', range: `${XSD}integer`, required: true, reference: null },
    { name: 'isbn', range: `${XSD}string`, required: true, reference: null },
    { name: 'title', range: `${XSD}string`, required: true, reference: null },
    { name: 'description', range: `${XSD}string`, required: false, reference: null },
    { name: 'author', range: `${vocab}Author`, required: true, reference: 'authors' },
    { name: 'publicationDate', range: `${XSD}date`, required: true, reference: null },
    { name: 'price', range: `${XSD}decimal`, required: true, reference: null },
  ]);
  assert.deepEqual(fieldsOf(authors).map((f) => f.name), ['id', 'name', 'birthDate', 'biography']);
  assert.deepEqual(
    fieldsOf(reviews).filter((f) => f.range?.startsWith(vocab)),
    [
      { name: 'author', range: `${vocab}User`, required: true, reference: null },
      { name: 'book', range: `${vocab}Book`, required: true, reference: 'books' },
    ],
  );
  assert.deepEqual((books.writableFields ?? []).map((f) => f.name), ['isbn', 'title', 'description', 'author', 'publicationDate', 'price'], 'id is read-only');
  assert.deepEqual((books.operations ?? []).map((o) => `${o.type} ${o.method}`), ['list GET', 'create POST', 'show GET', 'edit PUT', 'edit PATCH', 'delete DELETE']);
  assert.deepEqual((reviews.operations ?? []).map((o) => `${o.type} ${o.method}`), ['list GET', 'create POST', 'show GET', 'edit PATCH', 'delete DELETE']);
});

test('the search filters of a collection, read from its hydra:search template', async () => {
  const { api } = await parseHydraDocumentation(shop.url());
  const books = api.resources!.find((r) => r.name === 'books')!;
  const parameters = await books.getParameters!();
  const names = parameters.map((p) => p.variable);
  for (const expected of ['title', 'isbn', 'author', 'price[between]', 'publicationDate[after]', 'exists[description]', 'order[title]']) assert.ok(names.includes(expected), expected);
});

test('the OpenAPI parser finds the same resources and fields from /docs.json', async () => {
  const { api, status } = await parseOpenApi3Documentation(`${shop.url()}/docs.json`);
  assert.equal(status, 200);
  const byName = new Map((api.resources ?? []).map((r) => [r.name, r]));
  assert.deepEqual([...byName.keys()], ['books', 'authors', 'reviews', 'users']);
  assert.deepEqual((byName.get('books')!.fields ?? []).map((f) => f.name), ['id', 'isbn', 'title', 'description', 'author', 'publicationDate', 'price']);
  assert.deepEqual((byName.get('users')!.fields ?? []).map((f) => f.name), ['id', 'email']);
  const referenceOf = (resource: string, field: string) => ((byName.get(resource)!.fields ?? []).find((f) => f.name === field)!.reference as Resource | null)?.name ?? null;
  assert.equal(referenceOf('books', 'author'), 'authors');
  assert.equal(referenceOf('reviews', 'book'), 'books');
  // The OpenAPI parser does not read relations from the document: it guesses them from field
  // names (handleJson.js, assignResourceRelationships: "author" → the resource titled Author).
  // So it takes Review.author, documented as an IRI of a User, for an Author: the parser's
  // heuristic, not the document; the Hydra parser above reads the documented range (User).
  assert.equal(referenceOf('reviews', 'author'), 'authors');
});

test('an entrypoint that is not a Hydra API is refused by the parser, not misread', async () => {
  // /docs.json is application/json, not JSON-LD: the parser reads it as no document at all.
  await assert.rejects(parseHydraDocumentation(`${shop.url()}/docs.json`), (error: { api?: { resources?: unknown[] }; error?: Error }) => {
    assert.equal(error.error?.message, 'An empty response was received for the entrypoint URL.');
    assert.deepEqual(error.api?.resources, []);
    return true;
  });
});
