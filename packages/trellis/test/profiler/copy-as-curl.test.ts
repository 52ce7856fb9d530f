/**
 * "Copy as curl" on the Request panel (issue 17, item 4): the command replays the request with
 * redacted values as shell variables, quoted so that no header or body can escape its word (checked
 * through a real shell), and with the variables set it replays against a running server.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { curlCommand } from '../../src/profiler/export/curl-command.ts';
import { COPY_SCRIPT, COPY_SCRIPT_INTEGRITY } from '../../src/profiler/export/copy-script.ts';
import { shellWord } from '../../src/profiler/export/shell-word.ts';
import type { Profile } from '../../src/profiler/profile.ts';
import { BROWSER, profilerApp } from './profiler-app.ts';
import { openDatabase, type Database } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';

const HOSTILE = ["it's", 'a "quoted" word', '$(touch /tmp/trellis-pwned)', '`id`', 'line 1\nline 2\r\n', 'back\\slash\\', '!! !$', '$HOME ${PATH}', "'; rm -rf ~; '", '* ? [a]', '\t', ''];
const hasCurl = spawnSync('curl', ['--version']).status === 0;

/** What a POSIX shell hands a program for the word. */
function throughShell(word: string, env: Record<string, string> = {}): string {
  return execFileSync('sh', ['-c', `printf '%s' ${word}`], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
}

test('a shell word carries hostile text unchanged through sh, and variables expand without splitting', () => {
  for (const text of HOSTILE) assert.equal(throughShell(shellWord([text])), text, JSON.stringify(text));
  assert.equal(shellWord(['/books/1']), '/books/1', 'a plain word stays bare');
  assert.equal(shellWord(['a b']), "'a b'");
  const word = shellWord(["pre'", { variable: 'TRELLIS_X' }, '"post $(x)']);
  assert.equal(word, `'pre'\\'''"$TRELLIS_X"'"post $(x)'`);
  assert.equal(throughShell(word, { TRELLIS_X: "$(id) * 'v'" }), `pre'$(id) * 'v'"post $(x)`);
  assert.equal(throughShell(shellWord(['nul\0byte'])), 'nulbyte');
});

/** A profile of a request as the request collector stores it. */
function profileOf(method: string, headers: Record<string, unknown>, body: Record<string, unknown> = { text: null, size: 0, truncated: false }, url = 'http://localhost:3000/x', extra: Record<string, unknown> = {}): Profile {
  return {
    token: 'abc123', parent: null, ip: '127.0.0.1', method, url, time: 0, statusCode: 200, durationMs: 1, children: [],
    collectors: { request: { method, url, path: '/x', query: {}, headers, body, contentType: null, route: null, params: {}, ip: '127.0.0.1', protocol: 'http', httpVersion: '1.1', cookies: {}, server: {}, subRequest: null, ...extra } },
  };
}

test('hop-by-hop, derived and proxy headers are left out; methods, empty headers, globbing and bodies handled', () => {
  const get = curlCommand(profileOf('GET', { host: 'localhost:3000', connection: 'keep-alive', 'content-length': '0', 'x-forwarded-for': '10.0.0.1', 'accept-encoding': 'gzip', ':authority': 'x', accept: 'application/ld+json', 'x-empty': '' }, undefined, 'http://localhost:3000/books?page[size]=5'))!;
  assert.equal(get.text, "curl --globoff 'http://localhost:3000/books?page[size]=5' \\\n  --compressed \\\n  -H 'accept: application/ld+json' \\\n  -H 'x-empty;'");
  assert.deepEqual([get.placeholders, get.notes], [[], []]);
  assert.equal(curlCommand(profileOf('HEAD', {}))!.text, 'curl --head http://localhost:3000/x');
  assert.equal(curlCommand(profileOf('DELETE', {}))!.text, 'curl -X DELETE http://localhost:3000/x');
  const withBody = curlCommand(profileOf('GET', {}, { text: '{"a":1}', size: 7, truncated: false }))!;
  assert.equal(withBody.text, "curl -X GET http://localhost:3000/x \\\n  --data-raw '{\"a\":1}'");
  const binary = curlCommand(profileOf('PUT', {}, { text: null, size: 2048, truncated: false, note: 'binary' }))!;
  assert.deepEqual(binary.notes, ['The body (binary, 2048 bytes) was not recorded: add it with --data-binary @file.']);
  const cut = curlCommand(profileOf('POST', {}, { text: 'abc', size: 9000, truncated: true }))!;
  assert.deepEqual(cut.notes, ["The body was cut at the profiler's limit: the command sends the 3 bytes recorded of 9000."]);
  assert.deepEqual(curlCommand(profileOf('GET', {}, undefined, 'https://localhost:8443/x'))!.notes, ["Against the development server's self-signed certificate, add --insecure (or --cacert with its certificate)."]);
  assert.equal(curlCommand(profileOf('GET', {}, undefined, undefined, { subRequest: { purpose: 'error' } })), null, 'a sub-request replays as its parent');
});

test('a header name with quote and dollar (both token characters, RFC 9110 §5.6.2) stays one argument', () => {
  const curl = curlCommand(profileOf('GET', { "x-it's$(id)`x`": "v'$(id)", "x-key's": '[redacted]' }))!;
  const lines = curl.text.split(' \\\n  ');
  assert.equal(throughShell(lines[1]!.slice('-H '.length)), "x-it's$(id)`x`: v'$(id)");
  assert.equal(throughShell(lines[2]!.slice('-H '.length), { TRELLIS_X_KEY_S: 'k' }), "x-key's: k");
});

test('every redacted value becomes a variable named after where it was', () => {
  const curl = curlCommand(profileOf('POST', { authorization: '[redacted]', cookie: '[redacted]', 'content-type': 'application/json' }, { text: '{\n  "user": "ann",\n  "password": "[redacted]",\n  "list": ["[redacted]"]\n}', size: 50, truncated: false }, 'http://localhost:3000/x?api_key=[redacted]&page=2'))!;
  assert.deepEqual(curl.placeholders, [
    { variable: 'TRELLIS_API_KEY', stands: 'the query parameter api_key' },
    { variable: 'TRELLIS_AUTHORIZATION', stands: 'the authorization header' },
    { variable: 'TRELLIS_COOKIE', stands: 'the cookie header' },
    { variable: 'TRELLIS_PASSWORD', stands: 'the body field password' },
    { variable: 'TRELLIS_SECRET', stands: 'a value the profiler redacted' },
  ]);
  assert.equal(curl.text.includes('[redacted]'), false);
  assert.match(curl.text, /-H 'authorization: '"\$TRELLIS_AUTHORIZATION"/);
  assert.match(curl.text, /'http:\/\/localhost:3000\/x\?api_key='"\$TRELLIS_API_KEY"'&page=2'/);
});

describe('copy as curl against a running server', () => {
  let app: FastifyInstance;
  let base: string;
  const SECRET = { token: 'curl-canary-token-41', password: 'curl-canary-pw-42', key: 'curl-canary-key-43' };
  const body = { note: `it's "quoted"\n$(touch /tmp/trellis-pwned) \`id\` \\ !!`, password: SECRET.password, n: 1 };
  const note = `it's $(id) "q" \`x\` \\`;
  before(async () => {
    app = await profilerApp({}, {}, (a) => {
      // A credential of its own kind (the firewall's authenticators would answer a Bearer token).
      a.post('/replay', async (request, reply) => {
        if (request.headers['x-auth-token'] !== SECRET.token) return reply.code(403).send({ error: 'bad token' });
        return { body: request.body, query: request.query, note: request.headers['x-note'] };
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(() => app.close());

  test('the Request panel shows the command, escaped, with its variables, a hidden button and the hashed script', async () => {
    const res = await fetch(`${base}/replay?q=a'b%20c&api_key=${SECRET.key}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': SECRET.token, 'x-note': note }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
    const token = res.headers.get('x-debug-token')!;
    await app.profiler!.settled();
    const page = await app.inject({ url: `/_profiler/${token}?panel=request`, headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 200);
    const curl = curlCommand((await app.profiler!.read(token))!)!;
    const pre = /<pre class="pf-body pf-curl" id="pf-curl">([\s\S]*?)<\/pre>/.exec(page.body)?.[1];
    assert.equal(pre?.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))).replaceAll('&amp;', '&'), curl.text);
    assert.ok(page.body.includes('<button type="button" class="pf-copy" data-copy="pf-curl" hidden>Copy as curl</button>'));
    assert.ok(page.body.includes(`<script src="/_profiler/copy.js" integrity="${COPY_SCRIPT_INTEGRITY}" defer></script>`));
    assert.ok(String(page.headers['content-security-policy']).split('; ').includes(`script-src '${COPY_SCRIPT_INTEGRITY}'`));
    assert.ok(page.body.includes('<li><code>TRELLIS_X_AUTH_TOKEN</code>: the x-auth-token header</li>'));
    for (const secret of Object.values(SECRET)) assert.equal(page.body.includes(secret) || curl.text.includes(secret), false, secret);

    const script = await app.inject({ url: '/_profiler/copy.js' });
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(script.body, COPY_SCRIPT);
    assert.equal((await app.inject({ url: '/_profiler/copy.js', remoteAddress: '192.0.2.7' })).statusCode, 404, 'behind the gate');
  });

  test('with its variables set, the command replays the request: same body, query and headers', { skip: hasCurl ? false : 'no curl on this machine' }, async () => {
    const res = await fetch(`${base}/replay?q=a'b%20c&api_key=${SECRET.key}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': SECRET.token, 'x-note': note }, body: JSON.stringify(body) });
    const original = await res.json();
    await app.profiler!.settled();
    const curl = curlCommand((await app.profiler!.read(res.headers.get('x-debug-token')!))!)!;
    assert.deepEqual(curl.placeholders.map((p) => p.variable), ['TRELLIS_API_KEY', 'TRELLIS_X_AUTH_TOKEN', 'TRELLIS_PASSWORD']);
    const env = { PATH: process.env.PATH ?? '', TRELLIS_API_KEY: SECRET.key, TRELLIS_X_AUTH_TOKEN: SECRET.token, TRELLIS_PASSWORD: SECRET.password };
    // Run by a shell as a user would paste it; -s and the status line appended only to read the answer.
    // Not spawnSync: the server answering it runs in this very process.
    const run = (vars: Record<string, string>) => promisify(execFile)('sh', ['-c', `${curl.text} -s -w '\\n%{http_code}'`], { env: vars, encoding: 'utf8', timeout: 20_000 });
    const replayed = await run(env);
    const [answer, status] = [replayed.stdout.slice(0, replayed.stdout.lastIndexOf('\n')), replayed.stdout.slice(replayed.stdout.lastIndexOf('\n') + 1)];
    assert.equal(status, '200');
    assert.deepEqual(JSON.parse(answer), original);
    assert.deepEqual(original, { body, query: { q: "a'b c", api_key: SECRET.key }, note });
    // Unset, the placeholder sends nothing that passes.
    const unset = await run({ PATH: env.PATH });
    assert.match(unset.stdout, /\n403$/);
  });
});

describe('copy as curl on the bookshop: a Bearer token filled in', { skip: hasCurl ? false : 'no curl on this machine' }, () => {
  let shop: FastifyInstance;
  let database: Database;
  let base: string;
  before(async () => {
    database = openDatabase('sqlite::memory:');
    shop = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
    await shop.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(shop.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await shop?.close();
    await database?.destroy();
  });

  test('GET /users/2 with Authorization: the command replays it with TRELLIS_AUTHORIZATION set, and is refused without', async () => {
    const login = await fetch(`${base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'alice@bookshop.test', password: 'alice-password' }) });
    const { token } = (await login.json()) as { token: string };
    const res = await fetch(`${base}/users/2`, { headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json' } });
    assert.equal(res.status, 200);
    const original = await res.text();
    await shop.profiler!.settled();
    const curl = curlCommand((await shop.profiler!.read(res.headers.get('x-debug-token')!))!)!;
    assert.deepEqual(curl.placeholders, [{ variable: 'TRELLIS_AUTHORIZATION', stands: 'the authorization header' }]);
    assert.equal(curl.text.includes(token), false, 'the token is not in the command');
    const run = (vars: Record<string, string>) => promisify(execFile)('sh', ['-c', `${curl.text} -s -w '\\n%{http_code}'`], { env: { PATH: process.env.PATH ?? '', ...vars }, encoding: 'utf8', timeout: 20_000 });
    const replayed = await run({ TRELLIS_AUTHORIZATION: `Bearer ${token}` });
    assert.equal(replayed.stdout, `${original}\n200`);
    assert.match((await run({})).stdout, /\n401$/);
  });
});
