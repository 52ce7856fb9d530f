// Trellis as users get it: built, packed, installed from the tarball into a directory outside this
// repository (no workspace links), and run on plain Node, which refuses to strip types inside
// node_modules: only the built JavaScript can answer here. The profile store is a file, so the
// profiler thread (a worker started from its built module) stores what the page then shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', npm_config_node_options: '' }, stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack gives a tarball that installs outside the workspace and serves requests', { timeout: 180_000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-install-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], PACKAGE)) as [{ filename: string; files: { path: string }[] }];
  const files = packed[0].files.map((f) => f.path);
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), 'the build ships');
  assert.ok(files.includes('dist/errors/exception.css') && files.includes('dist/profiler/ui/profiler.css'), 'stylesheets ship');
  assert.ok(files.includes('dist/profiler/toolbar/toolbar.client.js') && files.includes('dist/profiler/toolbar/toolbar.css'), 'the toolbar script and stylesheet ship');
  assert.deepEqual(files.filter((f) => /\.test\.|\.contract\.|^test\//.test(f)), [], 'no tests or contract suites ship');

  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'installed-app', private: true, type: 'module' }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', `./${packed[0].filename}`], dir);
  assert.ok(readdirSync(join(dir, 'node_modules', 'trellis', 'dist')).includes('index.js'));

  writeFileSync(join(dir, 'main.js'), `
import { createApp, loadConfig } from 'trellis';
const app = await createApp({ config: loadConfig({ DATABASE_URL: 'sqlite::memory:', PROFILER_DSN: 'sqlite:profiles.db', LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(32) }) });
const missing = await app.inject({ method: 'GET', url: '/robots.txt', headers: { accept: 'application/json' } });
const docs = await app.inject({ method: 'GET', url: '/docs.json' });
await app.profiler.settled();
const profile = await app.inject({ method: 'GET', url: '/_profiler/' + missing.headers['x-debug-token'] });
console.log(JSON.stringify({ missing: missing.statusCode, message: missing.json().detail, docs: docs.statusCode, profile: profile.statusCode, css: profile.body.includes('</style>') }));
await app.close();
`);
  const out = execFileSync(process.execPath, ['main.js'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  assert.deepEqual(JSON.parse(out.trim().split('\n').at(-1)!), { missing: 404, message: 'No route found for "GET /robots.txt"', docs: 200, profile: 200, css: true });
});
