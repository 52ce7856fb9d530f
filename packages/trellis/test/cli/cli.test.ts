// The `trellis` command against the bookshop (its package.json names its app module) and a
// throwaway project, as a user runs it: a process, its output and its exit status.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { postgresForTests, TEST_POSTGRES_URL } from '../../src/testing/services.ts';
import { openTestSchema } from '../../src/testing/test-schema.ts';

const BIN = fileURLToPath(new URL('../../bin/trellis.js', import.meta.url));
const BOOKSHOP = fileURLToPath(new URL('../../../../examples/bookshop/', import.meta.url));
const { NODE_TEST_CONTEXT: _child, ...inherited } = process.env;
const ENV = { ...inherited, NODE_OPTIONS: '--conditions=trellis-source', NO_COLOR: '1', LOG_LEVEL: 'silent' };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A project with no resources and one migration (`001-notes`), removed after the test. */
function notesProject(t: { after: (fn: () => void) => void }, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', type: 'module', trellis: { app: 'src/app.ts' } }));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'app.ts'), 'export const resources = [];\n');
  mkdirSync(join(dir, 'migrations'));
  writeFileSync(join(dir, 'migrations', '001-notes.ts'), "export async function up(db) { await db.schema.createTable('notes').addColumn('id', 'integer').execute(); }\n");
  return dir;
}

async function trellis(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd, env: { ...ENV, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('trellis routes and openapi (declarations only)', () => {
  test('routes --json names each operation and its rules', async () => {
    const run = await trellis(['routes', '--json'], BOOKSHOP);
    assert.equal(run.code, 0, run.stderr);
    const rows = JSON.parse(run.stdout) as { method: string; path: string; operation: string | null; security: string | null; securityPostDenormalize: string | null }[];
    assert.deepEqual(rows.find((r) => r.path === '/reviews' && r.method === 'POST'), { method: 'POST', path: '/reviews', operation: 'Review.post', security: 'ROLE_USER', securityPostDenormalize: 'authoredByUser()' });
    assert.deepEqual(rows.find((r) => r.path === '/books/:id' && r.method.startsWith('GET')), { method: 'GET|HEAD', path: '/books/:id', operation: 'Book.get', security: null, securityPostDenormalize: null });
    assert.ok(rows.some((r) => r.path === '/_profiler/:token'), 'the debug configuration has the profiler');
  });

  test('routes --production has no profiler', async () => {
    const run = await trellis(['routes', '--production', '--json'], BOOKSHOP);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { path: string }[]).filter((r) => r.path.startsWith('/_profiler')).length, 0);
  });

  test('routes prints an aligned table', async () => {
    const run = await trellis(['routes'], BOOKSHOP);
    assert.match(run.stdout, /^method {4}path {2,}operation {2,}security {2,}after deserialisation\n/);
    assert.match(run.stdout, /\nPOST {6}\/reviews {2,}Review\.post {2,}ROLE_USER {2,}authoredByUser\(\)\n/);
  });

  test('openapi prints the document /docs.json serves, --yaml the YAML one', async () => {
    const json = await trellis(['openapi'], BOOKSHOP);
    assert.equal(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout) as { openapi: string; paths: Record<string, unknown>; servers: unknown; info: { contact?: unknown } };
    assert.match(doc.openapi, /^3\.1\./);
    assert.deepEqual(doc.servers, [{ url: 'http://localhost:8000', description: 'This server.' }], 'the address trellis serve listens on by default');
    const elsewhere = JSON.parse((await trellis(['openapi'], BOOKSHOP, { PORT: '9321' })).stdout) as { servers: unknown };
    assert.deepEqual(elsewhere.servers, [{ url: 'http://localhost:9321', description: 'This server.' }], 'the port trellis serve would listen on');
    assert.deepEqual(doc.info.contact, { name: 'Bookshop API team', url: 'https://bookshop.test/api', email: 'api@bookshop.test' }, 'the app module\'s docs');
    assert.ok('/books/{id}' in doc.paths);
    const yaml = await trellis(['openapi', '--yaml'], BOOKSHOP);
    assert.match(yaml.stdout, /^openapi: 3\.1\.\d+\n/);
  });
});

describe('trellis migrate, migrate:status, user:create on a fresh database', () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-cli-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'data.db')}` };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('status lists the migration as pending, migrate applies it once', async () => {
    const pending = await trellis(['migrate:status', '--json'], BOOKSHOP, env);
    assert.deepEqual(JSON.parse(pending.stdout), [{ name: '001-initial-schema', appliedAt: null }]);
    const first = await trellis(['migrate'], BOOKSHOP, env);
    assert.equal(first.stdout, 'applied  001-initial-schema\n');
    const again = await trellis(['migrate'], BOOKSHOP, env);
    assert.equal(again.stdout, 'Nothing to apply: the schema is up to date.\n');
    const status = await trellis(['migrate:status'], BOOKSHOP, env);
    assert.match(status.stdout, /^migration {11}applied\n001-initial-schema {2}\d{4}-\d\d-\d\dT/);
  });

  test('a failing migration: those before it are said rolled back with it (one transaction), and nothing is applied', async (t) => {
    const project = notesProject(t, 'trellis-failing-');
    writeFileSync(join(project, 'migrations', '002-broken.ts'), "export async function up(db) { await db.schema.alterTable('no_such_table').addColumn('x', 'integer').execute(); }\n");
    const failing = { DATABASE_URL: `sqlite:${join(project, 'data.db')}` };
    const run = await trellis(['migrate'], project, failing);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, 'rolled back  001-notes\nfailed  002-broken\n');
    assert.match(run.stderr, /^error Migration "002-broken" failed: .*no_such_table/);
    const status = await trellis(['migrate:status', '--json'], project, failing);
    assert.deepEqual(JSON.parse(status.stdout), [{ name: '001-notes', appliedAt: null }, { name: '002-broken', appliedAt: null }]);
  });

  test('user:create adds a user once, with ROLE_USER and the roles asked for', async () => {
    const created = await trellis(['user:create', '--email', 'ops@example.test', '--role', 'ROLE_ADMIN'], BOOKSHOP, { ...env, TRELLIS_PASSWORD: 'a long password' });
    assert.equal(created.stdout, 'Created ops@example.test with ROLE_USER, ROLE_ADMIN.\n');
    const twice = await trellis(['user:create', '--email', 'ops@example.test'], BOOKSHOP, { ...env, TRELLIS_PASSWORD: 'a long password' });
    assert.deepEqual([twice.code, twice.stderr], [1, 'error A user ops@example.test exists already.\n']);
    const otherCase = await trellis(['user:create', '--email', 'OPS@Example.TEST'], BOOKSHOP, { ...env, TRELLIS_PASSWORD: 'a long password' });
    assert.deepEqual([otherCase.code, otherCase.stderr], [1, 'error A user ops@example.test exists already (the same address in other letter case).\n']);
    // Spaces around the address are not part of it: stored with them, it could never sign in.
    const spaced = await trellis(['user:create', '--email', ' spaced@example.test '], BOOKSHOP, { ...env, TRELLIS_PASSWORD: 'a long password' });
    assert.equal(spaced.stdout, 'Created spaced@example.test with ROLE_USER.\n');
  });

  test('user:create refuses a short password, a bad role, no password and what is no e-mail address, with status 2', async () => {
    for (const [args, message] of [
      [['--password', 'short'], 'The password must be at least 8 characters long.'],
      [['--password', 'long enough', '--role', 'admin'], '"admin" is not a role: roles look like ROLE_ADMIN.'],
      [[], 'Give the password with --password or TRELLIS_PASSWORD.'],
    ] as const) {
      const run = await trellis(['user:create', '--email', 'x@example.test', ...args], BOOKSHOP, env);
      assert.deepEqual([run.code, run.stderr], [2, `error ${message}\n`]);
    }
    for (const email of ['not an email', 'a@b', '@example.test', 'a@@example.test', 'a@example..test']) {
      const run = await trellis(['user:create', '--email', email, '--password', 'long enough'], BOOKSHOP, env);
      assert.deepEqual([run.code, run.stderr], [2, `error "${email}" is not an e-mail address.\n`]);
    }
  });
});

describe('trellis migrate and migrate:status on a PostgreSQL schema of their own', async () => {
  const pg = await postgresForTests();
  /** A project with one migration, and DATABASE_URL confined to `schema` by its search_path. */
  function project(t: { after: (fn: () => void) => void }): string {
    return notesProject(t, 'trellis-pg-schema-');
  }
  const inSchema = (schema: string) => ({ DATABASE_URL: `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` });

  test('another schema of the database with its own migration history is not taken for this one', { skip: pg.skip }, async (t) => {
    const dir = project(t);
    const first = await openTestSchema('cli_first');
    t.after(() => first.close());
    const second = await openTestSchema('cli_second');
    t.after(() => second.close());
    assert.equal((await trellis(['migrate'], dir, inSchema(first.schema))).stdout, 'applied  001-notes\n');
    const pending = await trellis(['migrate:status', '--json'], dir, inSchema(second.schema));
    assert.equal(pending.code, 0, pending.stderr);
    assert.deepEqual(JSON.parse(pending.stdout), [{ name: '001-notes', appliedAt: null }]);
    const run = await trellis(['migrate'], dir, inSchema(second.schema));
    assert.deepEqual([run.code, run.stdout, run.stderr], [0, 'applied  001-notes\n', '']);
  });

  test('a schema that does not exist, or a database, is one line saying so', { skip: pg.skip }, async (t) => {
    const dir = project(t);
    for (const command of ['migrate', 'migrate:status']) {
      const noSchema = await trellis([command], dir, inSchema('no_such_schema_here'));
      assert.deepEqual([noSchema.code, noSchema.stderr], [1, "error Migration failed: the search_path names no schema that exists (DATABASE_URL's options, or PGOPTIONS): create the schema first\n"]);
      const noDatabase = await trellis([command], dir, { DATABASE_URL: TEST_POSTGRES_URL.replace(/\/[^/]*$/, '/no_such_database_here') });
      assert.equal(noDatabase.code, 1);
      assert.match(noDatabase.stderr, /^error the database "no_such_database_here" does not exist at .* \(DATABASE_URL\): create it first \(createdb no_such_database_here\)\.\n$/);
    }
  });
});

describe('user:create says which fix a failure needs', () => {
  test('no users table: has migrate run?', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-nomigrate-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const run = await trellis(['user:create', '--email', 'x@example.test', '--password', 'long enough'], BOOKSHOP, { DATABASE_URL: `sqlite:${join(dir, 'data.db')}` });
    assert.deepEqual([run.code, run.stderr], [1, 'error Could not create the user: no such table: users (has "trellis migrate" run?)\n']);
  });

  test('a database nobody answers at: check DATABASE_URL, not migrate', async () => {
    // A port nothing listens on (loopback, refused at once).
    const run = await trellis(['user:create', '--email', 'x@example.test', '--password', 'long enough'], BOOKSHOP, { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error Could not create the user: .*ECONNREFUSED.* \(check DATABASE_URL: 127\.0\.0\.1:9\)\n$/);
  });
});

describe('trellis make:migration and errors outside a project', () => {
  test('writes the next numbered file in the migrations folder', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-make-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', trellis: { app: 'src/app.ts' } }));
    mkdirSync(join(dir, 'migrations'));
    writeFileSync(join(dir, 'migrations', '007-older.ts'), 'export async function up() {}\n');
    const run = await trellis(['make:migration', 'Add due date to Tasks!'], dir);
    assert.equal(run.stdout, 'Created migrations/008-add-due-date-to-tasks.ts: fill in up() and down(), then run trellis migrate.\n');
    assert.deepEqual(readdirSync(join(dir, 'migrations')), ['007-older.ts', '008-add-due-date-to-tasks.ts']);
    assert.match(readFileSync(join(dir, 'migrations', '008-add-due-date-to-tasks.ts'), 'utf8'), /export async function up\(db: Kysely<any>\)/);
    const empty = await trellis(['make:migration', '!!!'], dir);
    assert.deepEqual([empty.code, empty.stderr], [2, 'error The migration name needs at least one letter or digit.\n']);
  });

  test('from a subdirectory, a command works in the project\'s: its relative paths are the project\'s', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-sub-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', trellis: { app: join(BOOKSHOP, 'src/app.ts') } }));
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    const run = await trellis(['migrate:status', '--json'], join(dir, 'src', 'deep'), { DATABASE_URL: 'sqlite:var/data.db' });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(readdirSync(join(dir, 'var')), ['data.db']);
    assert.deepEqual(readdirSync(join(dir, 'src', 'deep')), [], 'no second database beside the shell');
    // The bookshop's module exports its migrations: a file in migrations/ would never run.
    const made = await trellis(['make:migration', 'Add notes'], join(dir, 'src'));
    assert.deepEqual([made.code, made.stderr], [1, `error ${relative(realpathSync(dir), join(BOOKSHOP, 'src/app.ts'))} exports its own "migrations", which trellis migrate runs instead of migrations/: add the new migration to that export.\n`]);
    assert.equal(existsSync(join(dir, 'migrations')), false);
  });

  test('outside a project every command says how to make one', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-none-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const run = await trellis(['routes'], dir);
    assert.deepEqual([run.code, run.stderr], [1, 'error No Trellis project here: add "trellis": { "app": "src/app.ts" } to package.json, or pass --app <module>.\n']);
  });

  test('an unknown command or option, or a missing value, is a usage error: status 2, as a bad value is', async () => {
    const run = await trellis(['frobnicate'], BOOKSHOP);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /error: unknown command 'frobnicate'/);
    const option = await trellis(['routes', '--bogus'], BOOKSHOP);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /error: unknown option '--bogus'/);
    const missing = await trellis(['profiler:list', '--url'], BOOKSHOP);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /error: option '--url <url>' argument missing/);
    assert.equal((await trellis(['--version'], BOOKSHOP)).code, 0);
  });

  test('a file that cannot be written is one line and status 1, not a stack', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-out-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const target = join(dir, 'no such dir', 'openapi.json');
    const run = await trellis(['openapi', '-o', target], BOOKSHOP);
    assert.deepEqual([run.code, run.stderr], [1, `error ENOENT: no such file or directory, open '${target}'\n`]);
    const directory = await trellis(['openapi', '-o', dir], BOOKSHOP);
    assert.deepEqual([directory.code, directory.stderr], [1, `error EISDIR: illegal operation on a directory, open '${dir}'\n`]);
  });
});

/** `trellis serve` in `cwd`, on a port of its own and a database in `dir`: the process and its URL once it listens. */
async function serving(cwd: string, dir: string, t: { after: (fn: () => void) => void }) {
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd, env: { ...ENV, LOG_LEVEL: 'info', PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'data.db')}`, PROFILER_DSN: 'memory:' }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
  return { child, base };
}

test('trellis serve runs the app until SIGTERM', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-serve-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { child, base } = await serving(BOOKSHOP, dir, t);
  const res = await fetch(`${base}/books/1`, { headers: { accept: 'application/json' } });
  assert.equal(res.status, 200, 'migrated and seeded before serving');
  assert.equal(((await res.json()) as { id: number }).id, 1);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});

test('trellis serve takes the app module\'s security and profiler exports, as createApp does', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-serve-module-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'notes', type: 'module', trellis: { app: 'src/app.ts' } }));
  writeFileSync(join(dir, 'src', 'app.ts'), `
import { Type, defineResource, html } from '${join(src, 'index.ts')}';
import { defineProfilerPanel } from '${join(src, 'profiler', 'index.ts')}';
export const name = 'Notes';
export const resources = [defineResource({ name: 'Note', path: '/notes', schema: Type.Object({ id: Type.Readonly(Type.Integer()), text: Type.String() }) })];
export const migrations = { '001-notes': { async up(db) {
  await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('email', 'text').addColumn('password_hash', 'text').addColumn('roles', 'text').addColumn('api_key_hash', 'text').execute();
  await db.schema.createTable('notes').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('text', 'text').execute();
} } };
export const security = { pathRules: [{ path: /^\\/notes\\/secret/, rule: 'ROLE_ADMIN', message: 'Secret notes are for administrators.' }] };
export const profiler = { panels: [defineProfilerPanel({ id: 'flags', label: 'Feature flags', collect: ({ request }) => ({ flags: String(request.headers['x-flags'] ?? '') }), render: ({ flags }) => html\`<p>\${flags}</p>\` })] };
`);
  const { child, base } = await serving(dir, dir, t);
  const secret = await fetch(`${base}/notes/secret`, { headers: { accept: 'application/problem+json' } });
  assert.equal(secret.status, 401, 'the path rule is the module\'s');
  const notes = await fetch(`${base}/notes`, { headers: { accept: 'application/json', 'x-flags': 'beta,dark' } });
  assert.equal(notes.status, 200);
  const token = notes.headers.get('x-debug-token');
  let profile: { collectors?: { flags?: { flags: string } } } = {};
  for (let i = 0; i < 50 && profile.collectors?.flags === undefined; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`${base}/_profiler/${token}.json`);
    if (res.ok) profile = (await res.json()) as typeof profile;
  }
  assert.deepEqual(profile.collectors?.flags, { flags: 'beta,dark' }, 'the module\'s panel collected');
  assert.equal((await fetch(`${base}/_profiler/${token}?panel=flags`)).status, 200);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});
