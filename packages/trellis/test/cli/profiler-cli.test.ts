// `trellis profiler:list / show / tail` as a user runs them: a process, against the SQLite store a
// debug app writes (PROFILER_DSN) and against the running app's JSON endpoints (--url); its output,
// its exit status, and never a secret the profiled requests carried.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { profilerApp } from '../profiler/profiler-app.ts';
import type { ProfileSummary } from '../../src/profiler/profile.ts';
import { redisForTests } from '../../src/testing/services.ts';

const BIN = fileURLToPath(new URL('../../bin/trellis.js', import.meta.url));
const { NODE_TEST_CONTEXT: _child, PROFILER_DSN: _dsn, NODE_ENV: _env, COLUMNS: _cols, ...inherited } = process.env;
const ENV = { ...inherited, NODE_OPTIONS: '--conditions=trellis-source', LOG_LEVEL: 'silent' };
const CANARY = 'canary-5c1e0a77';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function trellis(args: string[], env: Record<string, string> = {}, cwd = tmpdir()): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd, env: { ...ENV, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('trellis profiler commands', () => {
  let dir: string;
  let app: FastifyInstance;
  let base: string;
  const tokens: Record<string, string> = {};
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-profiler-cli-'));
    app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    tokens.hello = (await app.inject({ url: '/hello?page=2' })).headers['x-debug-token'] as string;
    tokens.secret = (await app.inject({
      method: 'POST',
      url: `/echo?api_key=${CANARY}-q`,
      headers: { authorization: `Bearer ${CANARY}-auth`, cookie: `sid=${CANARY}-cookie` },
      payload: { title: 'Dune', password: `${CANARY}-pw` },
    })).headers['x-debug-token'] as string;
    tokens.echo = (await app.inject({ method: 'POST', url: '/echo', headers: { cookie: `sid=${CANARY}-c2` }, payload: { title: 'Dune', password: `${CANARY}-pw2` } })).headers['x-debug-token'] as string;
    tokens.missing = (await app.inject({ url: `/missing/${'x'.repeat(300)}` })).headers['x-debug-token'] as string;
    await app.profiler!.settled();
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sources = [
    { name: 'the store (PROFILER_DSN)', args: () => [] as string[], env: () => ({ PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` }) },
    { name: 'a running app (--url)', args: () => ['--url', base], env: () => ({}) },
  ];

  /** A command against `source`; what the tests made is stored first: the store is read by another process, which cannot wait for it. */
  const runner = (source: (typeof sources)[number]) => async (args: string[], env: Record<string, string> = {}) => (await app.profiler!.settled(), trellis([...args, ...source.args()], { ...source.env(), ...env }));

  for (const source of sources) {
    describe(`from ${source.name}`, () => {
      const run = runner(source);

      test('profiler:list --json lists the stored summaries, newest first, as the store has them', async () => {
        const r = await run(['profiler:list', '--json', '--limit', '100']);
        assert.equal(r.code, 0, r.stderr);
        const listed = JSON.parse(r.stdout) as ProfileSummary[];
        await app.profiler!.settled();
        assert.deepEqual(listed, await app.profiler!.storage.find({ limit: 100 }));
        for (const token of Object.values(tokens)) assert.ok(listed.some((s) => s.token === token), token);
      });

      test('filters: --method, --status, --path, --ip, --limit', async () => {
        const post = JSON.parse((await run(['profiler:list', '--json', '--method', 'post'])).stdout) as ProfileSummary[];
        assert.ok(post.length >= 2 && post.every((s) => s.method === 'POST'));
        const missing = JSON.parse((await run(['profiler:list', '--json', '--status', '404', '--path', '/missing/'])).stdout) as ProfileSummary[];
        assert.ok(missing.length >= 1 && missing.every((s) => s.statusCode === 404 && s.url.includes('/missing/')));
        assert.equal((JSON.parse((await run(['profiler:list', '--json', '--ip', '192.0.2.1'])).stdout) as unknown[]).length, 0);
        assert.equal((JSON.parse((await run(['profiler:list', '--json', '--limit', '1'])).stdout) as unknown[]).length, 1);
      });

      test('the table fits COLUMNS: every line as wide or narrower, the URL cut with an ellipsis; no colour off a terminal', async () => {
        const r = await run(['profiler:list', '--limit', '100'], { COLUMNS: '80' });
        assert.equal(r.code, 0, r.stderr);
        const lines = r.stdout.trimEnd().split('\n');
        assert.match(lines[0]!, /^token {3}time {18}status {2}method {2}duration {2}ip {9}url$/);
        assert.ok(lines.every((l) => l.length <= 80), lines.find((l) => l.length > 80));
        assert.ok(lines.some((l) => l.startsWith(tokens.missing!) && l.endsWith('…')));
        assert.ok(!r.stdout.includes('\x1b'), 'no escape codes into a pipe');
        const wide = await run(['profiler:list', '--limit', '100']);
        assert.ok(wide.stdout.includes(`/missing/${'x'.repeat(300)}`), 'a pipe without COLUMNS gets whole values');
      });

      test('profiler:show: facts, phases and panels; --json is the profile; --panel one panel', async () => {
        const human = await run(['profiler:show', tokens.hello!]);
        assert.equal(human.code, 0, human.stderr);
        assert.match(human.stdout, /^200 GET http:\/\/localhost:80\/hello\?page=2\ntoken [0-9a-f]{6} · /);
        assert.match(human.stdout, /\nphases\n {2}observe +\d/);
        assert.match(human.stdout, /\n {2}db {2}0 queries, 0\.00 ms\n/);
        const json = JSON.parse((await run(['profiler:show', tokens.hello!, '--json'])).stdout) as { token: string; collectors: Record<string, unknown> };
        assert.equal(json.token, tokens.hello);
        assert.deepEqual(Object.keys(json.collectors).slice(0, 3), ['request', 'response', 'time']);
        const panel = JSON.parse((await run(['profiler:show', tokens.secret!, '--panel', 'request', '--json'])).stdout) as { token: string; panel: string; data: { headers: Record<string, string> } };
        assert.equal(panel.panel, 'request');
        assert.equal(panel.data.headers.authorization, '[redacted]');
        const db = await run(['profiler:show', tokens.hello!, '--panel', 'db']);
        assert.match(db.stdout, /^0 queries, 0\.00 ms\n#  time  stage  sql\n$/);
        await app.profiler!.settled();
        const [newest] = await app.profiler!.storage.find({ mainOnly: true, limit: 1 });
        const latest = JSON.parse((await run(['profiler:show', 'LATEST', '--json'])).stdout) as { token: string };
        assert.equal(latest.token, newest!.token);
      });

      test('unknown tokens and panels are one line and exit 1; a token that is a path is never requested', async () => {
        for (const token of ['ffffff', '../../etc/passwd', 'search', `${'a'.repeat(5000)}`]) {
          const r = await run(['profiler:show', token]);
          assert.equal(r.code, 1, token.slice(0, 20));
          assert.equal(r.stderr, `error Token "${token}" not found.\n`);
          assert.equal(r.stdout, '');
        }
        const r = await run(['profiler:show', tokens.hello!, '--panel', 'nope']);
        assert.equal(r.code, 1);
        assert.equal(r.stderr, `error Profile ${tokens.hello} has no panel "nope"; it has: request, response, time, exception, logs, db, security, router, api, http_client, events.\n`);
      });

      test('no answer of any command holds the canary secret', async () => {
        const outputs = await Promise.all([
          run(['profiler:list', '--json', '--limit', '100']),
          run(['profiler:list', '--limit', '100']),
          ...[tokens.secret!, tokens.echo!].flatMap((t) => [run(['profiler:show', t]), run(['profiler:show', t, '--json']), ...['request', 'response', 'logs', 'exception', 'events'].map((p) => run(['profiler:show', t, '--panel', p]))]),
        ]);
        for (const o of outputs) {
          assert.equal(o.code, 0, o.stderr);
          assert.ok(!o.stdout.includes(CANARY) && !o.stderr.includes(CANARY), o.stdout.slice(0, 200));
        }
        assert.ok(outputs.some((o) => o.stdout.includes('[redacted]')));
      });
    });
  }

  // After every source's listings: a tail makes requests until it prints one, as many as a slow
  // start of the command takes, which would push the tokens made in `before` out of the newest
  // hundred that `profiler:list --limit 100` shows (it did, under a loaded machine).
  for (const source of sources) {
    describe(`profiler:tail from ${source.name}`, () => {
      test('profiler:tail prints requests made after it started, as they are recorded, then stops at --count', async () => {
        const child = spawn(process.execPath, [BIN, 'profiler:tail', '--interval', '100', '--count', '2', ...source.args()], { cwd: tmpdir(), env: { ...ENV, ...source.env(), COLUMNS: '200' } });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
        const exited = once(child, 'exit');
        // The header says it has read what is stored: from then on, new requests are news.
        while (!stdout.includes('\n')) await once(child.stdout, 'data');
        assert.match(stdout, /^token {3}time/);
        const fresh = [(await app.inject({ url: '/hello?tail=1' })).headers['x-debug-token'], (await app.inject({ url: '/hello?tail=2' })).headers['x-debug-token']];
        const [code] = await exited;
        assert.equal(code, 0);
        const rows = stdout.trimEnd().split('\n').slice(1);
        assert.deepEqual(rows.map((r) => r.slice(0, 6)), fresh);
        assert.match(rows[0]!, /^[0-9a-f]{6} {2}\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d {2}200 +GET +\d+\.\d ms +127\.0\.0\.1 +http:\/\/localhost:80\/hello\?tail=1$/);
      });

      test('profiler:tail --json: one summary per line', async () => {
        const child = spawn(process.execPath, [BIN, 'profiler:tail', '--json', '--interval', '100', '--count', '1', '--method', 'PUT', ...source.args()], { cwd: tmpdir(), env: { ...ENV, ...source.env() } });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
        let exited = false;
        const done = once(child, 'exit').then(([code]) => ((exited = true), code));
        // It prints nothing before the first new profile: requests are made until one is printed.
        while (!exited) {
          await app.inject({ method: 'PUT', url: '/hello' });
          await app.inject({ url: '/hello?not-a-put' });
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(await done, 0);
        const lines = stdout.trimEnd().split('\n');
        assert.equal(lines.length, 1);
        const summary = JSON.parse(lines[0]!) as ProfileSummary;
        assert.equal(summary.method, 'PUT');
        assert.equal(summary.statusCode, 405, 'PUT /hello: the path exists for GET only');
      });
    });
  }

  test('bad filters are the search page\'s messages, exit 2', async () => {
    const env = { PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` };
    const cases: [string[], string][] = [
      [['--limit', '1000'], 'Invalid --limit: expected a whole number from 1 to 100.'],
      [['--status', '999'], 'Invalid --status: expected a status code from 100 to 599, or a class such as 4xx.'],
      [['--status', '6xx'], 'Invalid --status: expected a status code from 100 to 599, or a class such as 4xx.'],
      [['--method', 'GET /x'], 'Invalid --method: expected an HTTP method name.'],
      [['--ip', 'not-ip'], 'Invalid --ip: expected an IP address such as 127.0.0.1 or ::1.'],
    ];
    for (const [args, message] of cases) {
      const r = await trellis(['profiler:list', ...args], env);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stderr, `error ${message}\n`);
    }
    const tail = await trellis(['profiler:tail', '--interval', '1'], env);
    assert.equal(tail.code, 2);
    assert.equal(tail.stderr, 'error --interval must be a whole number of milliseconds from 50 to 60000.\n');
  });

  test('where there is nothing to read, one line says why', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [[], { PROFILER_DSN: `sqlite:${join(dir, 'none.db')}` }, `No profile store at ${join(dir, 'none.db')} (PROFILER_DSN=sqlite:${join(dir, 'none.db')}): run this where the app runs, set PROFILER_DSN, or pass --url.`],
      [[], { PROFILER_DSN: 'memory:' }, 'The profile store "memory:" lives inside the app\'s process: read it through the app with --url http://127.0.0.1:8000.'],
      [[], { NODE_ENV: 'production' }, 'There is no profiler in production (NODE_ENV=production): profiles are recorded in the debug configuration only.'],
      [['--url', 'ftp://127.0.0.1/'], {}, '"ftp://127.0.0.1/" is not an http:// or https:// URL.'],
      [['--url', 'not a url'], {}, '"not a url" is not a URL: expected the app\'s address, such as http://127.0.0.1:8000.'],
    ];
    for (const [args, env, message] of cases) {
      const r = await trellis(['profiler:list', ...args], env);
      assert.equal(r.code, 1, message);
      assert.equal(r.stderr, `error ${message}\n`);
    }
  });

  test('--url: an app that is not there, or has no profiler (production, or the gate refuses)', async () => {
    const server: Server = createServer((req, res) => {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ status: 404, detail: `No route found for "GET ${req.url}"` }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const args of [['profiler:list'], ['profiler:show', 'abcdef']]) {
        const r = await trellis([...args, '--url', other]);
        assert.equal(r.code, 1);
        assert.equal(r.stderr, `error No profiler answers at ${other}/_profiler: the app runs in production, its profiler is off, or PROFILER_ALLOW does not admit this client.\n`);
      }
    } finally {
      server.close();
    }
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const gone = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.close();
    await once(server, 'close');
    const r = await trellis(['profiler:list', '--url', gone]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `error Could not reach ${gone}: ECONNREFUSED.\n`);
  });

  test('--url: what a hostile or broken server answers is shown escaped, or refused in one line', async () => {
    const evil = 'http://x/\x1b[2J\x1b]0;pwned\x07';
    const server: Server = createServer((req, res) => {
      const send = (status: number, body: unknown, type = 'application/json') => (res.writeHead(status, { 'content-type': type }), res.end(typeof body === 'string' ? body : JSON.stringify(body)));
      if (req.url!.startsWith('/_profiler/search.json')) return send(200, { count: 1, results: [{ token: 'abcdef', parent: null, ip: '\x1b[1m1.2.3.4', method: 'GET', url: evil, time: 0, statusCode: 200, durationMs: 1 }] });
      if (req.url === '/_profiler/abcdef.json') return send(200, { token: 'abcdef', parent: null, ip: '1.2.3.4', method: 'GET', url: evil, time: 0, statusCode: 500, durationMs: 1, children: [], collectors: { exception: { chain: [{ class: 'Error', message: '\x1b[31mred', status: 500, code: null, frames: [] }] } } });
      return send(200, '<html>a login page</html>', 'text/html');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const list = await trellis(['profiler:list', '--url', other]);
      assert.equal(list.code, 0, list.stderr);
      assert.ok(!list.stdout.includes('\x1b'), JSON.stringify(list.stdout));
      assert.ok(list.stdout.includes('http://x/\\x1b[2J\\x1b]0;pwned\\x07'));
      assert.ok(list.stdout.includes('\\x1b[1m1.2.3.4'));
      const show = await trellis(['profiler:show', 'abcdef', '--url', other]);
      assert.equal(show.code, 0, show.stderr);
      assert.ok(!show.stdout.includes('\x1b'));
      assert.ok(show.stdout.includes('exception  Error: \\x1b[31mred'));
      const html = await trellis(['profiler:show', 'latest', '--url', other]);
      assert.equal(html.code, 1);
      assert.equal(html.stderr, `error No profiler answers at ${other}/_profiler: the app runs in production, its profiler is off, or PROFILER_ALLOW does not admit this client.\n`);
    } finally {
      server.close();
    }
  });
});

const redis = await redisForTests();

describe('trellis profiler commands on a Redis store (PROFILER_DSN=redis://…)', { skip: redis.skip }, () => {
  let app: FastifyInstance;
  let dsn: string;
  before(async () => {
    // A prefix of this run's own on the shared Redis; purged (by prefix) afterwards, never flushed.
    const url = new URL(redis.url!);
    url.searchParams.set('prefix', `trellis-test:profiler-cli:${process.pid}:`);
    dsn = url.href;
    app = await profilerApp({ PROFILER_DSN: dsn });
  });
  after(async () => {
    await app.profiler!.storage.purge();
    await app.close();
  });

  test('list and show read what the app wrote, opened as the app opens it', async () => {
    const token = (await app.inject({ method: 'POST', url: '/echo', headers: { authorization: `Bearer ${CANARY}-redis` }, payload: { password: `${CANARY}-r` } })).headers['x-debug-token'] as string;
    await app.profiler!.settled();
    const list = await trellis(['profiler:list', '--json', '--method', 'POST'], { PROFILER_DSN: dsn });
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual((JSON.parse(list.stdout) as ProfileSummary[]).map((s) => s.token).filter((t) => t === token), [token]);
    const show = await trellis(['profiler:show', token, '--panel', 'request', '--json'], { PROFILER_DSN: dsn });
    assert.equal(show.code, 0, show.stderr);
    assert.equal(JSON.parse(show.stdout).data.headers.authorization, '[redacted]');
    assert.ok(!list.stdout.includes(CANARY) && !show.stdout.includes(CANARY));
  });
});
