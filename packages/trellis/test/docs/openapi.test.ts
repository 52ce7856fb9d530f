/**
 * The OpenAPI document of the bookshop: valid for a maintained validator, complete (every route
 * of the app), and exact: real responses of every format validate against the documented
 * schemas, inputs and outputs keep read-only, write-only, required and nullable apart.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validate, compileErrors } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import type { FastifyInstance } from 'fastify';
import { appRoutes, bookshopApp } from './bookshop-app.ts';

let app: FastifyInstance;
let doc: any;
let token: string;
before(async () => {
  app = await bookshopApp();
  const res = await app.inject({ url: '/docs.json' });
  assert.equal(res.statusCode, 200);
  doc = res.json();
  token = (await app.inject({ method: 'POST', url: '/auth', payload: { email: 'admin@bookshop.test', password: 'admin-password' } })).json().token;
});
after(() => app.close());

const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/** Schemas by JSON pointer into the document, with `#/components/...` refs resolved against it. */
function validatorFor(document: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const f of ['iri-reference', 'password']) ajv.addFormat(f, true);
  ajv.addSchema(document as object, 'openapi');
  return (pointer: string, value: unknown) => {
    const check = ajv.getSchema(`openapi#${pointer}`)!;
    assert.ok(check, `no schema at ${pointer}`);
    assert.ok(check(value), `${pointer}: ${JSON.stringify(check.errors?.slice(0, 3))}\n${JSON.stringify(value).slice(0, 300)}`);
  };
}
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const responseSchema = (path: string, method: string, status: number, type: string) => `/paths/${esc(path)}/${method}/responses/${status}/content/${esc(type)}/schema`;

describe('the OpenAPI document', () => {
  test('passes @readme/openapi-parser validation (OpenAPI 3.1 schema and its extra rules)', async () => {
    const result = await validate(structuredClone(doc));
    assert.equal(result.valid, true, result.valid ? '' : compileErrors(result));
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'Bookshop');
  });

  test('every route of the app appears, with its method', () => {
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`)));
    const missing = appRoutes(app)
      // Format-extension twins (`/books.jsonld`) of documented paths, and the UI's static files.
      .filter((r) => !r.path.endsWith('.:ext') && r.path !== '/docs/assets/:file')
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`)
      .filter((r) => !documented.has(r));
    assert.deepEqual(missing, []);
    assert.ok(documented.has('POST /reviews') && documented.has('PUT /books/{id}') && documented.has('POST /auth'));
    assert.ok(!documented.has('GET /users') && !documented.has('POST /users'), 'User declares only get');
  });

  test('read-only fields are absent from inputs, required and nullability are exact', () => {
    const s = doc.components.schemas;
    assert.deepEqual(Object.keys(s['Book.input'].properties), ['isbn', 'title', 'description', 'author', 'publicationDate', 'price']);
    assert.deepEqual(s['Book.input'].required, ['isbn', 'title', 'author', 'publicationDate', 'price']);
    assert.equal(s['Book.input'].additionalProperties, false);
    assert.deepEqual(Object.keys(s['Review.input'].properties), ['rating', 'body', 'author', 'book']);
    assert.deepEqual(s['Review.patch'].required, undefined, 'merge patches require nothing');
    // Outputs: every readable property is always present; null only where the declaration allows it.
    assert.deepEqual(s.Book.required, ['id', 'isbn', 'title', 'description', 'author', 'publicationDate', 'price']);
    assert.deepEqual(s.Book.properties.description.anyOf.map((v: any) => v.type), ['string', 'null']);
    assert.equal(s.Book.properties.title.type, 'string');
    assert.equal(s.Book.properties.id.readOnly, true);
    assert.equal(s.Review.properties.publicationDate.readOnly, true);
    assert.deepEqual(s.Book.properties.author.anyOf, [{ type: 'string', format: 'iri-reference' }, { $ref: '#/components/schemas/Author' }]);
    assert.deepEqual(s['Author.input'].required, ['name']);
    assert.deepEqual(
      Object.keys(s).filter((n) => n.startsWith('User')),
      ['User', 'User.jsonld', 'User.jsonhal', 'User.jsonapi.resource', 'User.jsonapi'],
      'User is read-only and item-only: no input, patch or collection shapes (spectral:oas oas3-unused-component)',
    );
  });

  test('collection parameters: pagination and every filter parameter', () => {
    const names = doc.paths['/books'].get.parameters.map((p: any) => p.name);
    for (const n of ['page', 'itemsPerPage', 'title', 'title[]', 'isbn', 'author', 'price[gt]', 'price[between]', 'publicationDate[after]', 'exists[description]', 'order[title]', 'embed']) assert.ok(names.includes(n), n);
    const order = doc.paths['/books'].get.parameters.find((p: any) => p.name === 'order[price]');
    assert.deepEqual(order.schema, { type: 'string', enum: ['asc', 'desc'] });
    assert.deepEqual(doc.paths['/books'].get.parameters.find((p: any) => p.name === 'itemsPerPage').schema, { type: 'integer', minimum: 1, default: 30 });
    assert.deepEqual(doc.paths['/books/{id}'].get.parameters[0], { name: 'id', in: 'path', required: true, description: 'The Book identifier.', schema: { type: 'integer', minimum: 1 } });
  });

  test('error responses per operation, and the security of each', () => {
    const codes = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
    assert.deepEqual(codes('/books', 'get'), ['200', '304', '400', '406']);
    // 409: a JSON:API resource object of another type or id (403 too on a creation choosing its id).
    assert.deepEqual(codes('/reviews', 'post'), ['201', '400', '401', '403', '406', '409', '413', '415', '422']);
    assert.deepEqual(codes('/books/{id}', 'patch'), ['200', '400', '401', '403', '404', '406', '409', '412', '413', '415', '422']);
    assert.deepEqual(codes('/books/{id}', 'delete'), ['204', '401', '403', '404', '406', '409', '412']);
    assert.deepEqual(Object.keys(doc.components.securitySchemes), ['bearerAuth', 'apiKey', 'basicAuth']);
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT from `POST /auth` with `{"email": …, "password": …}`; paste the `token` value.' });
    assert.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key of the user.' });
    assert.deepEqual(doc.paths['/reviews'].post.security, [{ bearerAuth: [] }, { apiKey: [] }, { basicAuth: [] }]);
    assert.deepEqual(doc.paths['/reviews'].get.security, [{}, { bearerAuth: [] }, { apiKey: [] }, { basicAuth: [] }]);
    assert.deepEqual(doc.paths['/auth'].post.security, []);
    assert.deepEqual(Object.keys(doc.paths['/books'].post.requestBody.content), ['application/ld+json', 'application/json', 'application/vnd.api+json', 'application/hal+json']);
    assert.deepEqual(Object.keys(doc.paths['/books/{id}'].patch.requestBody.content), ['application/merge-patch+json', 'application/vnd.api+json']);
  });

  test('real responses in every format validate against the documented schemas', async () => {
    const check = validatorFor(doc);
    const formats = ['application/ld+json', 'application/json', 'application/hal+json', 'application/vnd.api+json'];
    for (const type of formats) {
      for (const [path, url] of [['/books', '/books?page=2'], ['/books/{id}', '/books/1'], ['/reviews', '/reviews?embed=author,book'], ['/reviews/{id}', '/reviews/1?embed=book'], ['/authors', '/authors?order[name]=asc'], ['/', '/']] as const) {
        const res = await app.inject({ url, headers: { accept: type } });
        assert.equal(res.statusCode, 200, `${url} ${type}`);
        check(responseSchema(path, 'get', 200, type), res.json());
      }
    }
    // A nullable field that is null (Author 3 may have no birth date): still present, still valid.
    const authors = (await app.inject({ url: '/authors?itemsPerPage=100', headers: { accept: 'application/json' } })).json();
    assert.ok(authors.every((a: any) => 'birthDate' in a && 'biography' in a));
  });

  test('written items and errors validate too: 201, 404, 401, 403, 422, 406, 415, in every error format', async () => {
    const check = validatorFor(doc);
    const alice = basic('alice@bookshop.test', 'alice-password');
    const review = { rating: 4, body: 'Worth it.', author: '/users/2', book: '/books/1' };
    check('/components/schemas/Review.jsonld-input', review);
    const created = await app.inject({ method: 'POST', url: '/reviews', headers: { authorization: alice, 'content-type': 'application/ld+json', accept: 'application/ld+json' }, payload: review });
    assert.equal(created.statusCode, 201);
    check(responseSchema('/reviews', 'post', 201, 'application/ld+json'), created.json());

    const errors: [string, Record<string, string>, unknown, string, number][] = [
      ['GET /books/999999', {}, undefined, 'NotFound', 404],
      ['POST /reviews', { 'content-type': 'application/json' }, review, 'Unauthorized', 401],
      ['POST /books', { 'content-type': 'application/json', authorization: alice }, {}, 'Forbidden', 403],
      ['POST /books', { 'content-type': 'application/json', authorization: `Bearer ${token}` }, { title: '' }, 'UnprocessableEntity', 422],
      ['GET /books', { accept: 'image/png' }, undefined, 'NotAcceptable', 406],
      ['POST /reviews', { 'content-type': 'text/plain', authorization: alice }, 'x', 'UnsupportedMediaType', 415],
      ['GET /books?page=0', {}, undefined, 'BadRequest', 400],
    ];
    for (const [line, headers, body, name, status] of errors) {
      const [method, url] = line.split(' ') as [string, string];
      for (const accept of ['application/json', 'application/ld+json', 'application/vnd.api+json']) {
        const res = await app.inject({ method: method as 'GET', url, headers: { ...headers, ...(status === 406 ? {} : { accept }) }, payload: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body) });
        assert.equal(res.statusCode, status, `${line}: ${res.body}`);
        const type = String(res.headers['content-type']).split(';')[0]!;
        check(`/components/responses/${name}/content/${esc(type)}/schema`, res.json());
      }
    }
  });

  test('served as application/vnd.openapi+json on request, as YAML at /docs.yaml, and negotiated at /docs', async () => {
    const vnd = await app.inject({ url: '/docs.json', headers: { accept: 'application/vnd.openapi+json' } });
    assert.equal(vnd.headers['content-type'], 'application/vnd.openapi+json; charset=utf-8');
    assert.match(String(vnd.headers.vary), /\bAccept\b/);
    assert.deepEqual(vnd.json(), doc);
    const plain = await app.inject({ url: '/docs.json' });
    assert.equal(plain.headers['content-type'], 'application/json; charset=utf-8');
    const yaml = await app.inject({ url: '/docs.yaml' });
    assert.equal(yaml.headers['content-type'], 'application/yaml; charset=utf-8');
    assert.deepEqual(parseYaml(yaml.body), doc);
    const viaDocs = await app.inject({ url: '/docs', headers: { accept: 'application/vnd.openapi+json' } });
    assert.deepEqual(viaDocs.json(), doc);
    assert.equal((await app.inject({ url: '/docs', headers: { accept: 'application/yaml' } })).body, yaml.body);
    const refused = await app.inject({ url: '/docs', headers: { accept: 'image/png' } });
    assert.equal(refused.statusCode, 406);
    assert.equal(
      refused.json().detail,
      'Requested format "image/png" is not supported. Supported MIME types are "text/html", "application/json", "application/vnd.openapi+json", "application/vnd.oai.openapi+json", "application/ld+json", "application/yaml", "application/vnd.oai.openapi".',
    );
    const etag = plain.headers.etag as string;
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal((await app.inject({ url: '/docs.json', headers: { 'if-none-match': etag } })).statusCode, 304);
  });

  test('the docs are public: a broken Authorization header does not hide them', async () => {
    for (const url of ['/docs', '/docs.json', '/docs.jsonld', '/docs.yaml']) {
      const res = await app.inject({ url, headers: { authorization: 'Bearer not-a-jwt' } });
      assert.equal(res.statusCode, 200, url);
    }
  });
});
