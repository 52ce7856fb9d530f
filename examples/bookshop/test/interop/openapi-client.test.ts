/**
 * A client generated from the running bookshop's OpenAPI document: openapi-typescript writes the
 * types into a temporary folder, a small program written against them (openapi-fetch) is
 * type-checked with the TypeScript compiler, then run: it signs in and creates a review. A call
 * the document does not allow fails the type check, so the check is not vacuous.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { ALICE, BOB, runningBookshop } from './running-bookshop.ts';

const shop = runningBookshop();
const NODE_MODULES = fileURLToPath(new URL('../../../../node_modules', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trellis-openapi-client-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The program, as a user would write it against the generated `paths`. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './bookshop-api.ts';

export async function postReview(baseUrl: string, account: { email: string; password: string }, review: { rating: number; body: string; author: string; book: string }) {
  // Plain JSON: the document offers four formats, so openapi-fetch is told which one this client
  // reads (its Media parameter), and the server is asked for that one.
  const client = createClient<paths, 'application/json'>({ baseUrl, headers: { Accept: 'application/json' } });
  const login = await client.POST('/auth', { body: account });
  if (login.data === undefined) throw new Error(\`login answered \${login.response.status}\`);
  const token: string = login.data.token;
  const { data, error, response } = await client.POST('/reviews', { body: review, headers: { Authorization: \`Bearer \${token}\` } });
  const created: { id: number; rating: number; author: string | object; publicationDate: string } | undefined = data;
  return { status: response.status, location: response.headers.get('location'), created, error };
}
`;

/** Diagnostics of `file` checked against the generated types (strict, as this repository is). */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.slice(dir.length + 1)}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

test('types generated from /docs.json type-check a client that signs in and creates a review; it runs', async () => {
  const ast = await openapiTS(new URL(`${shop.url()}/docs.json`));
  writeFileSync(join(dir, 'bookshop-api.ts'), astToString(ast));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'client.ts'), CLIENT);
  assert.deepEqual(typeErrors(join(dir, 'client.ts')), []);

  const { postReview } = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as { postReview: (...args: unknown[]) => Promise<any> };
  const result = await postReview(shop.url(), ALICE, { rating: 4, body: 'Read it twice.', author: ALICE.iri, book: '/books/7' });
  assert.equal(result.status, 201);
  assert.equal(result.error, undefined);
  assert.equal(result.location, `/reviews/${result.created.id}`);
  assert.equal(result.created.rating, 4);
  assert.equal(result.created.author, ALICE.iri);
  assert.match(result.created.publicationDate, /^\d{4}-\d\d-\d\dT/);
  const stored = (await (await fetch(`${shop.url()}${result.location}`, { headers: { accept: 'application/json' } })).json()) as Record<string, unknown>;
  assert.equal(stored.body, 'Read it twice.');

  // The wrong user: Alice posting as Bob is refused with the rule's message, typed as an error.
  const refused = await postReview(shop.url(), ALICE, { rating: 1, body: 'Not mine.', author: BOB.iri, book: '/books/7' });
  assert.equal(refused.status, 403);
  assert.equal(refused.created, undefined);
  assert.equal(refused.error.detail, 'You may only post reviews as yourself.');
});

test('a call the document does not allow does not type-check', () => {
  writeFileSync(
    join(dir, 'wrong.ts'),
    `import createClient from 'openapi-fetch';
import type { paths } from './bookshop-api.ts';
const client = createClient<paths>({ baseUrl: 'http://localhost' });
void client.POST('/reviews', { body: { rating: 'five', body: 'x', author: '/users/2', book: '/books/1' } });
void client.DELETE('/users/{id}', { params: { path: { id: 1 } } });
`,
  );
  const errors = typeErrors(join(dir, 'wrong.ts'));
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(errors[0]!, /Type 'string' is not assignable to type 'number'/);
  assert.match(errors[1]!, /DELETE|"\/users\/\{id\}"/);
});
