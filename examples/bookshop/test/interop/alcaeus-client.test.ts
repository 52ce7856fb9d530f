/**
 * alcaeus, the Hydra client the issue names (issue 19, item 5), against the running bookshop: it
 * loads a collection, dereferences the API documentation from the Link header, finds every resource
 * class, expands the collection's search template from a model of properties (the template's
 * `property` mappings as IRIs: what failed before), and follows the collection's view to the
 * next page. Everything over HTTP, as any Hydra client does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import create from 'alcaeus';
import rdf, { Environment } from '@zazuko/env-node';
import { runningBookshop } from './running-bookshop.ts';

const shop = runningBookshop();

// alcaeus's types come from generated RDF mixins; the test reads them as plain objects.
type Node = { id: { value: string } };
type Collection = Node & { member: Node[]; totalItems: number; view: (Node & { next?: Node; last?: Node })[]; search?: { template: string; mapping: { variable: string; property: Node }[]; expand(...models: unknown[]): string } };

function client() {
  return new Environment(create(), { parent: rdf }) as unknown as {
    hydra: { loadResource(url: string): Promise<{ response?: { xhr: { status: number } }; representation?: { root: unknown } }>; apiDocumentations: { root: { supportedClass: (Node & { supportedOperation: { method: string }[] })[] } }[] };
    clownface(): { blankNode(): { addOut(p: unknown, o: unknown): unknown } };
    namedNode(iri: string): unknown;
    literal(value: string): unknown;
  };
}

test('a collection, the API documentation behind it, every resource class with its operations', async () => {
  const env = client();
  const { response, representation } = await env.hydra.loadResource(`${shop.url()}/books`);
  assert.equal(response?.xhr.status, 200);
  const books = representation!.root as Collection;
  assert.equal(books.member.length, 30);
  assert.ok(books.totalItems > 30, String(books.totalItems));
  const [docs] = env.hydra.apiDocumentations;
  const classes = docs!.root.supportedClass.map((c) => c.id.value.split('#')[1]);
  for (const name of ['Book', 'Author', 'Review', 'User']) assert.ok(classes.includes(name), `${name} in ${classes.join(', ')}`);
  const book = docs!.root.supportedClass.find((c) => c.id.value.endsWith('#Book'))!;
  assert.deepEqual(book.supportedOperation.map((o) => o.method).sort(), ['DELETE', 'GET', 'PATCH', 'PUT']);
});

test('the search template expands from a model of the mapped properties; operator variables are bound to the property they act on, as API Platform binds them', async () => {
  const env = client();
  const books = (await env.hydra.loadResource(`${shop.url()}/books`)).representation!.root as Collection;
  const search = books.search!;
  const title = search.mapping.find((m) => m.variable === 'title')!;
  assert.equal(title.property.id.value, `${shop.url()}/docs.jsonld#Book/title`, 'the mapping names a property by IRI');
  const model = env.clownface().blankNode();
  model.addOut(env.namedNode(title.property.id.value), env.literal('dune'));
  // `order[title]` is mapped to Book/title too (API Platform's OrderFilter maps it so, and its
  // api-doc-parser drops a mapping without a property), so alcaeus, right by Hydra's letter,
  // binds the model's title to it as well; the server then names the bad value exactly.
  const url = new URL(search.expand(model));
  assert.deepEqual([...url.searchParams], [['title', 'dune'], ['order[title]', 'dune']]);
  const refused = await fetch(url, { headers: { accept: 'application/ld+json' } });
  assert.equal(refused.status, 400);
  assert.equal(((await refused.json()) as { detail: string }).detail, 'Invalid value "dune" for the query parameter "order[title]": expected asc or desc.');
  // The search alone: the expanded URL without the variable the model did not mean.
  url.searchParams.delete('order[title]');
  const found = (await env.hydra.loadResource(url.href)).representation!.root as Collection;
  assert.ok(found.member.length >= 1, 'Dune is found');
  assert.equal(found.totalItems, found.member.length);
});

test("the collection's view leads page by page to the last", async () => {
  const env = client();
  // From the collection's own IRI: alcaeus finds a collection asked for with a query through its
  // view's @id, which names the page too (`?page=2`), as API Platform's does.
  let page = (await env.hydra.loadResource(`${shop.url()}/reviews`)).representation!.root as Collection;
  const total = page.totalItems;
  let seen = page.member.length;
  const last = page.view[0]!.last?.id.value;
  assert.ok(last, 'the view names the last page');
  for (let hops = 0; page.view[0]?.next && hops < 100; hops++) {
    page = (await env.hydra.loadResource(page.view[0]!.next!.id.value)).representation!.root as Collection;
    seen += page.member.length;
  }
  assert.equal(seen, total, 'every member once, following next');
  assert.equal(page.view[0]!.id.value, last);
});
