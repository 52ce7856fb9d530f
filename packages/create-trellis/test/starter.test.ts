// The starter as a new user meets it: both packages packed, the project scaffolded from the
// tarballs into a directory outside this repository, installed with no workspace links, and then
// the two commands its README gives: `npm test` passes, `npm start` serves the resource.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGES = fileURLToPath(new URL('../../', import.meta.url));
// Outside the workspace nothing may lean on its condition or its Node: plain environment, same node.
// NODE_TEST_CONTEXT would make the project's own `node --test` report to this runner, not print.
const { NODE_TEST_CONTEXT: _child, ...inherited } = process.env;
const ENV = { ...inherited, NODE_OPTIONS: '', npm_config_node_options: '', PATH: `${join(process.execPath, '..')}:${process.env.PATH}` };
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv = ENV): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
const pack = (name: string, dir: string): string => join(dir, (JSON.parse(npm(['pack', '--json', '--pack-destination', dir], join(PACKAGES, name))) as [{ filename: string }])[0].filename);

test('npm init trellis, then npm install && npm start and npm test, from tarballs', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'create-trellis-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const trellis = pack('trellis', dir);
  const starter = pack('create-trellis', dir);

  // What `npm init trellis` runs: the starter's bin, installed from its tarball.
  npm(['install', '--no-audit', '--no-fund', '--prefix', join(dir, 'starter'), starter], dir);
  const bin = join(dir, 'starter', 'node_modules', 'create-trellis', 'create-trellis.js');
  // The tarball as a user names it, relative to where they run the starter.
  const created = execFileSync(process.execPath, [bin, 'my-api', '--trellis', `./${basename(trellis)}`], { cwd: dir, encoding: 'utf8', env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  assert.match(created, /^Created my-api \(\d+ files\)\.\n\nNext:\n {2}cd my-api\n {2}npm install && npm start\n {2}npm test\n$/);
  const project = join(dir, 'my-api');
  for (const file of ['.gitignore', '.env.example', 'README.md', 'migrations/001-initial-schema.ts', 'src/app.ts', 'test/tasks.test.ts']) {
    assert.ok(existsSync(join(project, file)), `${file} is scaffolded`);
  }
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  assert.equal(manifest.name, 'my-api');
  assert.equal(manifest.dependencies.trellis, `file:../${basename(trellis)}`, 'reached from the project, where npm reads it');
  assert.match(readFileSync(join(project, 'README.md'), 'utf8'), /^# My API\n[\s\S]*npm install && npm start[\s\S]*npm test/);

  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, encoding: 'utf8', env: ENV });
  assert.equal(install.status, 0, install.stderr);
  assert.doesNotMatch(install.stderr, /install-scripts/, 'no install script left for the user to review (@scarf/scarf is denied)');
  assert.equal(lstatSync(join(project, 'node_modules', 'trellis')).isSymbolicLink(), false, 'installed, not linked');
  assert.ok(existsSync(join(project, 'node_modules', 'trellis', 'dist', 'index.js')));
  const tested = npm(['test'], project);
  assert.match(tested, /ℹ pass 2\nℹ fail 0\n/);

  assert.match(npm(['run', 'migrate'], project), /applied {2}001-initial-schema\n/);
  assert.match(npm(['run', 'migrate'], project), /Nothing to apply: the schema is up to date\.\n/);
  const user = npm(['run', 'user:create', '--', '--email', 'admin@example.test', '--password', 'correct horse battery', '--role', 'ROLE_ADMIN'], project);
  assert.match(user, /Created admin@example\.test with ROLE_USER, ROLE_ADMIN\./);

  const server = spawn('npm', ['start'], { cwd: project, env: { ...ENV, PORT: '0', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  t.after(() => {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  });
  let out = '';
  server.stdout!.on('data', (c: Buffer) => (out += c));
  server.stderr!.on('data', (c: Buffer) => (out += c));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s:\n${out}`)), 60_000);
    server.stdout!.on('data', () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve((clearTimeout(timer), m[1]!));
    });
    server.once('exit', (code) => reject((clearTimeout(timer), new Error(`npm start exited with ${code}:\n${out}`))));
  });
  const res = await fetch(`${base}/tasks`, { headers: { accept: 'application/json' } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('x-debug-token') ?? '', /^[0-9a-f]{6}$/);
  assert.equal(((await res.json()) as unknown[]).length, 3);
  const login = await fetch(`${base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.test', password: 'correct horse battery' }) });
  assert.equal(login.status, 200, 'the user the command made can sign in');
});
