// The READMEs' code runs: every code block of README.md and examples/bookshop/README.md is either
// run here, as written (hosts swapped for this test's server), or named as covered by another
// test. A block added without either fails, so a snippet cannot go stale unnoticed.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = join(ROOT, 'packages/trellis/bin/trellis.js');
const { NODE_TEST_CONTEXT: _child, ...inherited } = process.env;
const ENV = { ...inherited, NODE_OPTIONS: '--conditions=trellis-source', NO_COLOR: '1' };

interface Block {
  readonly file: string;
  readonly heading: string;
  readonly lang: string;
  readonly code: string;
}

function blocks(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: Block[] = [];
  let heading = '';
  const re = /^(#{1,3} .*)$|^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m; (m = re.exec(text)); ) {
    if (m[1]) heading = m[1].replace(/^#+ /, '');
    else found.push({ file, heading, lang: m[2]!, code: m[3]! });
  }
  return found;
}

/** What happens to each block, by file, heading and language; `run` blocks are run below. */
const DISPOSITION: Record<string, 'run' | string> = {
  'README.md|Trellis|sh': 'the two commands CI runs (.ci/run: npm ci, npm test; npm start in process-startup.test.ts)',
  'README.md|A tour|sh': 'run',
  'README.md|Start your own API|sh': 'packages/create-trellis/test/starter.test.ts, from the packed tarballs',
  'README.md|Start your own API|sh#2': 'packages/create-trellis/test/starter.test.ts: the packed trellis tarball handed to create-trellis.js with --trellis, then npm install and npm start',
  'README.md|Declaring a resource|ts': 'run',
  'README.md|Declaring a resource|sh': 'run',
  'README.md|A profiler panel of your own|ts': 'run',
  'README.md|The profiler in a terminal, and for AI agents|sh': 'run',
  'README.md|The profiler in a terminal, and for AI agents|json': 'an MCP client configuration: test/profiler/profiler-mcp.test.ts runs trellis profiler:mcp --url and /_profiler/mcp with the SDK\'s client',
  'README.md|Replaying, exporting and CPU-profiling a request|sh': "the shape of the Request panel's command: test/profiler/copy-as-curl.test.ts and test/e2e/profiler-workflow.test.ts replay the panel's own command with curl, its variable set",
  'README.md|Replaying, exporting and CPU-profiling a request|sh#2': 'test/profiler/cpu-profile.test.ts sends X-Trellis-Profile-CPU: 1 from loopback and reads the cpu panel and the .cpuprofile',
  'README.md|Layout|': 'a directory listing',
  'README.md|Benchmarks|sh': 'bench/ (minutes of load; not a test)',
  'examples/bookshop/README.md|Run it|sh': 'npm start: examples/bookshop/test/process-startup.test.ts',
  'examples/bookshop/README.md|Run it|sh#2': 'run',
  'examples/bookshop/README.md|What to try|sh': 'run',
};

const ALL = ['README.md', 'examples/bookshop/README.md'].flatMap(blocks);
const keyed = new Map<string, Block>();
for (const b of ALL) {
  let key = `${b.file}|${b.heading}|${b.lang}`;
  for (let n = 2; keyed.has(key); n++) key = `${b.file}|${b.heading}|${b.lang}#${n}`;
  keyed.set(key, b);
}
const block = (key: string): Block => keyed.get(key) ?? assert.fail(`no block ${key}`);

test('every README code block is run here or covered by a named test', () => {
  assert.deepEqual([...keyed.keys()].sort(), Object.keys(DISPOSITION).sort());
});

/** Runs a shell block as written against `base`, with the documented host swapped for it. */
async function sh(code: string, base: string, env: Record<string, string> = {}): Promise<string> {
  const script = code.replace(/(localhost|127\.0\.0\.1):8000/g, base.replace('http://', ''));
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env: { ...ENV, ...env }, maxBuffer: 16 * 2 ** 20 });
  return stdout;
}

/** A process that prints "Server listening at …"; resolves with that URL. */
async function listening(child: ChildProcess): Promise<string> {
  let out = '';
  child.stderr?.on('data', (c: Buffer) => (out += c));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

describe('the bookshop READMEs, against a running bookshop', () => {
  let dir: string;
  let server: ChildProcess;
  let base: string;
  let env: Record<string, string>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-readme-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'shop.db')}`, PROFILER_DSN: 'memory:', LOG_LEVEL: 'info', PORT: '0' };
    server = spawn(process.execPath, ['examples/bookshop/src/main.ts'], { cwd: ROOT, env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    base = await listening(server);
  });
  after(async () => {
    server.kill('SIGTERM');
    await once(server, 'exit');
    rmSync(dir, { recursive: true, force: true });
  });

  test('A tour: every command succeeds and each status its comment names is answered', async () => {
    const code = block('README.md|A tour|sh').code;
    const out = await sh(code, base);
    for (const [, status] of code.matchAll(/# (\d{3})\b/g)) assert.match(out, new RegExp(`HTTP/1\\.1 ${status} `));
    assert.match(out, /^allow: GET, HEAD\r$/m);
    assert.match(out, /"@type":\s*"Review"/, 'the review was created');
  });

  test('What to try: every command succeeds', async () => {
    const out = await sh(block('examples/bookshop/README.md|What to try|sh').code, base);
    assert.match(out, /"@id":\s*"\/books\/1"/);
    assert.match(out, /"price":\s*15/, 'the merge-patch applied');
  });

  test('The profiler in a terminal: compare two requests, list and show them with the CLI', async () => {
    // `npx trellis` is this workspace's bin.
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'npx'), `#!/bin/sh\n[ "$1" = trellis ] && shift\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const out = await sh(block('README.md|The profiler in a terminal, and for AI agents|sh').code, base, { PATH: `${join(dir, 'bin')}:${process.env.PATH}` });
    const comparison = /^\{.*?\}(?=token )/s.exec(out)?.[0] ?? assert.fail(out.slice(0, 500));
    const c = JSON.parse(comparison) as { a: { url: string }; b: { url: string; token: string }; queries: { count: { a: number; b: number } } };
    assert.match(c.a.url, /\/books\?title=dune$/);
    assert.match(c.b.url, /\/books\?order\[title\]=desc$/);
    assert.ok(c.queries.count.a > 0 && c.queries.count.b > 0);
    // (curl prints the JSON without a newline: the table's header follows it on the same line.)
    assert.match(out, /\}token {3}time {18}status {2}method {2}duration/);
    assert.match(out, new RegExp(`\\n${c.b.token} .* 200 +GET .*/books\\?order\\[title\\]=desc\\n`));
    assert.match(out, /\n\d+ quer(y|ies), [\d.]+ ms\n# +time +stage +sql\n1 /);
  });

  test('Run it: the seed commands migrate, seed and reset another database', async () => {
    const other = { DATABASE_URL: `sqlite:${join(dir, 'seeded.db')}` };
    const out = await sh(block('examples/bookshop/README.md|Run it|sh#2').code, base, other);
    assert.match(out, /seed/i);
  });
});

describe('Declaring a resource, as written, in a project of its own', () => {
  test('the app module migrates, makes an admin, serves, and the admin adds and removes an author', { timeout: 60_000 }, async (t) => {
    // Inside the repository, so `trellis` resolves to this workspace's package.
    const project = mkdtempSync(join(ROOT, '.tmp-docs-'));
    t.after(() => rmSync(project, { recursive: true, force: true }));
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'authors', private: true, type: 'module', trellis: { app: 'src/app.ts' } }));
    writeFileSync(join(project, 'src/app.ts'), block('README.md|Declaring a resource|ts').code);
    const env = { ...ENV, DATABASE_URL: `sqlite:${join(project, 'data.db')}`, PROFILER_DSN: 'memory:', LOG_LEVEL: 'info', PORT: '0', PATH: `${join(project, 'bin')}:${process.env.PATH}` };
    // `npx trellis` is this workspace's bin.
    mkdirSync(join(project, 'bin'));
    writeFileSync(join(project, 'bin', 'npx'), `#!/bin/sh\n[ "$1" = trellis ] && shift\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });

    const [migrateLine, userLine, serveLine] = block('README.md|Declaring a resource|sh').code.trim().split('\n');
    const run = (line: string) => promisify(execFile)('bash', ['-euo', 'pipefail', '-c', line.replace(/\s+#.*$/, '')], { cwd: project, env });
    assert.equal((await run(migrateLine!)).stdout, `${/# (.*)$/.exec(migrateLine!)![1]}\n`);
    assert.equal((await run(userLine!)).stdout, 'Created admin@example.test with ROLE_USER, ROLE_ADMIN.\n');

    const server = spawn('bash', ['-c', `exec ${serveLine!.replace(/\s+#.*$/, '').replace('npx trellis', `"${process.execPath}" "${BIN}"`)}`], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    t.after(() => server.kill('SIGKILL'));
    const base = await listening(server);
    const admin = { authorization: `Basic ${Buffer.from('admin@example.test:a long password').toString('base64')}`, accept: 'application/json' };
    const listed = await fetch(`${base}/authors`, { headers: { accept: 'application/json' } });
    assert.deepEqual([listed.status, await listed.json()], [200, []]);
    const anonymous = await fetch(`${base}/authors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ursula K. Le Guin"}' });
    assert.equal(anonymous.status, 401);
    const created = await fetch(`${base}/authors`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: '{"name":"Ursula K. Le Guin","born":"1929-10-21"}' });
    assert.equal(created.status, 201);
    const author = (await created.json()) as { id: number; name: string };
    assert.equal(author.name, 'Ursula K. Le Guin');
    const removed = await fetch(`${base}/authors/${author.id}`, { method: 'DELETE', headers: admin });
    assert.equal(removed.status, 204);
  });
});

describe('A profiler panel of your own, as written', () => {
  test('the panel collects, badges and renders in an app that registers it', async (t) => {
    // Inside the repository, so `trellis` resolves to this workspace's package.
    const dir = mkdtempSync(join(ROOT, '.tmp-docs-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, 'flags.ts'), block('README.md|A profiler panel of your own|ts').code);
    const { flags } = (await import(join(dir, 'flags.ts'))) as { flags: import('../../src/profiler/define-profiler-panel.ts').ProfilerPanel };
    const { createApp } = await import('../../src/app/create-app.ts');
    const { testConfig } = await import('../../src/testing/test-config.ts');
    const app = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:' }), profiler: { panels: [flags] } });
    app.get('/hello', async () => ({ hello: 'world' }));
    t.after(() => app.close());
    const res = await app.inject({ url: '/hello', headers: { 'x-flags': 'new-checkout,<b>dark</b>' } });
    await app.profiler!.settled();
    const token = res.headers['x-debug-token'] as string;
    const json = (await app.inject({ url: `/_profiler/${token}.json` })).json() as { collectors: { flags: { flags: string[] } } };
    assert.deepEqual(json.collectors.flags, { flags: ['new-checkout', '<b>dark</b>'] });
    const page = (await app.inject({ url: `/_profiler/${token}?panel=flags`, headers: { accept: 'text/html' } })).body;
    assert.match(page, /<h2>Feature flags<\/h2><ul><li>new-checkout<\/li><li>&lt;b&gt;dark&lt;\/b&gt;<\/li><\/ul>/);
    assert.match(page, /<a[^>]*data-panel="flags"[^>]*><span>Feature flags<\/span><span class="pf-badge[^"]*">2<\/span>/);
  });
});
