// The profiler's MCP server end to end, with the SDK's own client: over streamable HTTP at
// /_profiler/mcp (behind the gate, debug only) and over stdio (`trellis profiler:mcp`, a process
// reading the store the app writes, or the app itself with --url). It lists its tools, searches,
// reads and compares; a canary secret the profiled requests carried is in no answer.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { profilerApp } from './profiler-app.ts';

const BIN = fileURLToPath(new URL('../../bin/trellis.js', import.meta.url));
const CANARY = 'canary-3b9d61fe';
const { NODE_TEST_CONTEXT: _child, PROFILER_DSN: _dsn, NODE_ENV: _env, ...inherited } = process.env;
const ENV = { ...(inherited as Record<string, string>), NODE_OPTIONS: '--conditions=trellis-source', LOG_LEVEL: 'silent' };

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

const text = (answer: unknown) => (answer as ToolAnswer).content.map((c) => c.text).join('\n');
const data = (answer: unknown) => {
  assert.notEqual((answer as ToolAnswer).isError, true, text(answer));
  return JSON.parse(text(answer));
};

describe('profiler MCP server', () => {
  let dir: string;
  let app: FastifyInstance;
  let base: string;
  let secret: string;
  let hello: string;
  let echo: string;
  const answers: string[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-mcp-'));
    app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}`, TRUSTED_PROXIES: '127.0.0.1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    hello = (await app.inject({ url: '/hello' })).headers['x-debug-token'] as string;
    // The firewall answers 401 to the bearer token, after the profiler has seen it all.
    secret = (await app.inject({
      method: 'POST',
      url: `/echo?token=${CANARY}-q`,
      headers: { authorization: `Bearer ${CANARY}-auth`, cookie: `sid=${CANARY}-cookie` },
      payload: { title: 'Dune', password: `${CANARY}-pw` },
    })).headers['x-debug-token'] as string;
    echo = (await app.inject({ method: 'POST', url: '/echo', headers: { cookie: `session=${CANARY}-c2` }, payload: { password: `${CANARY}-pw2`, note: 'ok' } })).headers['x-debug-token'] as string;
    await app.profiler!.settled();
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    assert.ok(answers.length >= 20, `${answers.length} answers checked`);
    for (const a of answers) assert.ok(!a.includes(CANARY), `a canary in an answer: ${a.slice(0, 300)}`);
  });

  const transports: { name: string; make: () => Transport }[] = [
    { name: 'streamable HTTP at /_profiler/mcp', make: () => new StreamableHTTPClientTransport(new URL(`${base}/_profiler/mcp`)) },
    { name: 'stdio, the store (trellis profiler:mcp)', make: () => new StdioClientTransport({ command: process.execPath, args: [BIN, 'profiler:mcp'], env: { ...ENV, PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` }, cwd: tmpdir(), stderr: 'pipe' }) },
    { name: 'stdio, the app (trellis profiler:mcp --url)', make: () => new StdioClientTransport({ command: process.execPath, args: [BIN, 'profiler:mcp', '--url', base], env: ENV, cwd: tmpdir(), stderr: 'pipe' }) },
  ];

  for (const { name, make } of transports) {
    describe(name, () => {
      let client: Client;
      before(async () => {
        client = new Client({ name: 'trellis-test', version: '1.0.0' });
        await client.connect(make());
      });
      after(() => client.close());
      const call = async (tool: string, args: Record<string, unknown>) => {
        const answer = await client.callTool({ name: tool, arguments: args });
        answers.push(JSON.stringify(answer));
        return answer;
      };

      test('lists its three read-only tools', async () => {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ['compare_profiles', 'read_profile', 'search_profiles']);
        assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
        const search = tools.find((t) => t.name === 'search_profiles')!;
        assert.deepEqual(Object.keys(search.inputSchema.properties ?? {}).sort(), ['ip', 'limit', 'mainOnly', 'method', 'statusCode', 'url']);
        assert.equal(client.getServerVersion()?.name, 'trellis-profiler');
      });

      test('search_profiles filters as the search page does', async () => {
        await app.profiler!.settled();
        const all = data(await call('search_profiles', { limit: 100 }));
        assert.equal(all.count, all.results.length);
        assert.deepEqual(all.results, await app.profiler!.storage.find({ limit: 100 }));
        const posts = data(await call('search_profiles', { method: 'post', mainOnly: true }));
        assert.ok(posts.count >= 2);
        assert.ok(posts.results.every((s: { method: string; parent: string | null }) => s.method === 'POST' && s.parent === null));
        const refused = data(await call('search_profiles', { statusCode: 401, url: '/echo' }));
        assert.ok(refused.results.some((s: { token: string }) => s.token === secret));
        const bad = await call('search_profiles', { statusCode: 999 });
        assert.equal((bad as ToolAnswer).isError, true);
        assert.equal(text(bad), 'Invalid profiler search parameter "status_code": expected a status code from 100 to 599, or a class such as 4xx.');
      });

      test('read_profile: the whole profile, or one panel; secrets as stored, redacted', async () => {
        const whole = data(await call('read_profile', { token: secret }));
        assert.equal(whole.token, secret);
        assert.equal(whole.statusCode, 401);
        assert.equal(whole.collectors.request.headers.authorization, '[redacted]');
        const request = data(await call('read_profile', { token: secret, panel: 'request' }));
        assert.equal(request.panel, 'request');
        assert.equal(request.data.headers.cookie, '[redacted]');
        assert.equal(request.data.query.token, '[redacted]');
        assert.equal(request.data.body.text, null, 'refused before its body was read');
        const body = data(await call('read_profile', { token: echo, panel: 'request' }));
        assert.deepEqual(JSON.parse(body.data.body.text), { password: '[redacted]', note: 'ok' });
        assert.equal(body.data.headers.cookie, '[redacted]');
        assert.equal(request.collectors, undefined);
        const latest = data(await call('read_profile', { token: 'latest', panel: 'time' }));
        assert.ok(latest.data.phases.length > 0);
      });

      test('compare_profiles: the comparison of two stored profiles', async () => {
        const c = data(await call('compare_profiles', { a: hello, b: secret }));
        assert.deepEqual(c.status, { a: 200, b: 401, changed: true });
        assert.equal(c.a.token, hello);
        assert.ok(c.headers.request.added.some((h: { name: string; value: string }) => h.name === 'authorization' && h.value === '[redacted]'));
      });

      test('unknown tokens and panels, hostile arguments: exact messages, never a crash', async () => {
        const unknown = await call('read_profile', { token: 'ffffff' });
        assert.equal((unknown as ToolAnswer).isError, true);
        assert.equal(text(unknown), 'Token "ffffff" not found.');
        const path = await call('read_profile', { token: '../../_profiler/search.json' });
        assert.equal(text(path), 'Token "../../_profiler/search.json" not found.');
        const panel = await call('read_profile', { token: hello, panel: '__proto__' });
        assert.equal(text(panel), `Profile ${hello} has no panel "__proto__"; it has: request, response, time, exception, logs, db, security, router, api, http_client, events.`);
        const compare = await call('compare_profiles', { a: hello, b: '000000' });
        assert.equal(text(compare), 'Token "000000" not found.');
        const huge = await call('read_profile', { token: 'a'.repeat(100_000) });
        assert.equal((huge as ToolAnswer).isError, true);
        assert.ok(text(huge).length < 2000, 'the huge argument is not echoed back whole');
        const wrongType = await call('search_profiles', { limit: 'all' });
        assert.equal((wrongType as ToolAnswer).isError, true);
        // Still serving after all that.
        assert.equal(data(await call('read_profile', { token: hello })).token, hello);
      });
    });
  }

  test('the gate refuses a client it does not admit: the MCP client cannot connect, a raw call is the ordinary 404', async () => {
    const client = new Client({ name: 'outsider', version: '1.0.0' });
    // Through the trusted proxy (127.0.0.1), for a client the gate does not admit.
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/_profiler/mcp`), { requestInit: { headers: { 'x-forwarded-for': '198.51.100.9' } } });
    await assert.rejects(client.connect(transport), /404/);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_profile', arguments: { token: secret } } };
    for (const remoteAddress of ['192.0.2.7', '10.0.0.1', '::ffff:198.51.100.9']) {
      const res = await app.inject({ method: 'POST', url: '/_profiler/mcp', remoteAddress, headers: { accept: 'application/json, text/event-stream' }, payload: call });
      assert.equal(res.statusCode, 404, remoteAddress);
      assert.equal(res.json().detail, 'No route found for "POST /_profiler/mcp"');
      assert.ok(!res.body.includes(secret));
    }
  });

  test('calls to the MCP server are not themselves profiled', async () => {
    await app.profiler!.settled();
    const before = (await app.profiler!.storage.find({ limit: 1000 })).length;
    const client = new Client({ name: 'counter', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/_profiler/mcp`)));
    answers.push(JSON.stringify(await client.callTool({ name: 'search_profiles', arguments: { limit: 100 } })));
    await client.close();
    await app.profiler!.settled();
    assert.equal((await app.profiler!.storage.find({ limit: 1000 })).length, before);
  });

  test('a request from a web page (it has an Origin) is refused, even from loopback', async () => {
    const res = await app.inject({ method: 'POST', url: '/_profiler/mcp', headers: { origin: 'http://rebound.example:8000', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().detail, "The profiler's MCP server does not answer web pages: a request with an Origin header is refused.");
  });

  // MCP streamable HTTP (2025-03-26 and later, "Listening for Messages from the Server"): a server
  // offering no SSE stream at the endpoint MUST answer GET with 405. The router has no GET route
  // there, and /_profiler/:token would take it for a token.
  test('GET and HEAD are 405 with the Allow DELETE gets, however the path is spelled', async () => {
    for (const url of ['/_profiler/mcp', '/_profiler/%6Dcp']) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await app.inject({ method, url, headers: { accept: 'text/event-stream' } });
        assert.equal(res.statusCode, 405, `${method} ${url}`);
        assert.equal(res.headers.allow, 'POST', `${method} ${url}`);
        assert.equal(res.json().detail, `No route found for "${method} ${url}": Method Not Allowed (Allow: POST)`);
      }
      const head = await app.inject({ method: 'HEAD', url, headers: { accept: 'text/event-stream' } });
      assert.equal(head.statusCode, 405, url);
      assert.equal(head.headers.allow, 'POST', url);
      assert.equal(head.body, '');
    }
  });

  test('GET, HEAD and DELETE from a client the gate refuses: the ordinary 404, no Allow', async () => {
    for (const remoteAddress of ['192.0.2.7', '::ffff:198.51.100.9']) {
      for (const method of ['GET', 'HEAD', 'DELETE'] as const) {
        const res = await app.inject({ method, url: '/_profiler/mcp', remoteAddress, headers: { accept: 'application/json, text/event-stream' } });
        const where = `${method} from ${remoteAddress}`;
        assert.equal(res.statusCode, 404, where);
        assert.equal(res.headers.allow, undefined, where);
        // The 404 of a profiler path that does not exist, word for word but the path.
        const nowhere = await app.inject({ method, url: '/_profiler/mcp/nowhere', remoteAddress, headers: { accept: 'application/json, text/event-stream' } });
        assert.equal(nowhere.statusCode, 404, where);
        if (method === 'HEAD') assert.equal(res.body, '');
        else {
          assert.equal(res.json().detail, `No route found for "${method} /_profiler/mcp"`);
          assert.equal(res.json().code, nowhere.json().code);
        }
      }
    }
  });

  test('an empty batch is the one JSON-RPC error JSON-RPC 2.0 §6 asks for; a batch of one is still answered', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const empty = await app.inject({ method: 'POST', url: '/_profiler/mcp', headers, payload: '[]' });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.headers['content-type'], 'application/json');
    assert.equal(empty.headers['x-robots-tag'], 'noindex');
    assert.deepEqual(empty.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    const one = await app.inject({ method: 'POST', url: '/_profiler/mcp', headers, payload: '[{"jsonrpc":"2.0","id":7,"method":"ping"}]' });
    assert.equal(one.statusCode, 200);
    assert.deepEqual(one.json(), { jsonrpc: '2.0', id: 7, result: {} });
  });

  test('malformed calls get the protocol\'s errors, not a 500', async () => {
    for (const payload of ['{"jsonrpc":"2.0","id":1,"method":"nope"}', '[]', '{"jsonrpc":"2.0"}', '"x"']) {
      const res = await app.inject({ method: 'POST', url: '/_profiler/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload });
      assert.ok(res.statusCode >= 200 && res.statusCode < 500, `${payload}: ${res.statusCode} ${res.body}`);
    }
    const notJson = await app.inject({ method: 'POST', url: '/_profiler/mcp', headers: { 'content-type': 'application/json' }, payload: '{"jsonrpc":' });
    assert.equal(notJson.statusCode, 400);
  });
});

describe('profiler MCP server in production', () => {
  test('there is none: /_profiler/mcp is a plain 404', async () => {
    const app = await profilerApp({ NODE_ENV: 'production', APP_DEBUG: '0' });
    try {
      const res = await app.inject({ method: 'POST', url: '/_profiler/mcp', headers: { accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
      assert.equal(res.statusCode, 404);
      assert.equal(app.profiler, undefined);
    } finally {
      await app.close();
    }
  });
});

describe('the MCP SDK is loaded lazily', () => {
  test('an app that never serves MCP never loads the SDK or zod; the first call does', async () => {
    // A process of its own: this one has loaded the SDK's client already.
    const script = `
      import { registerHooks } from 'node:module';
      const seen = new Set();
      registerHooks({ resolve(specifier, context, next) { if (/@modelcontextprotocol|^zod($|\\/)/.test(specifier)) seen.add(specifier.split('/')[0]); return next(specifier, context); } });
      const { profilerApp } = await import(${JSON.stringify(new URL('./profiler-app.ts', import.meta.url).href)});
      const app = await profilerApp();
      await app.inject({ url: '/hello' });
      await app.inject({ url: '/_profiler/latest' });
      const before = [...seen];
      const res = await app.inject({ method: 'POST', url: '/_profiler/mcp', headers: { accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
      console.log(JSON.stringify({ before, after: [...seen].sort(), status: res.statusCode, tools: res.json().result.tools.length }));
      await app.close();`;
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env: ENV });
    assert.deepEqual(JSON.parse(stdout.trim().split('\n').pop()!), { before: [], after: ['@modelcontextprotocol', 'zod'], status: 200, tools: 3 });
  });
});
