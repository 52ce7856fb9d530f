// `trellis serve` (a starter's `npm start`) when startup cannot go on: one line saying why, no
// stack, and the process ends with status 1 (with the profiler's thread and store opened first).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/trellis.js', import.meta.url));
const INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const { NODE_TEST_CONTEXT: _child, ...inherited } = process.env;
const ENV = { ...inherited, NODE_OPTIONS: '--conditions=trellis-source', NO_COLOR: '1', LOG_LEVEL: 'silent' };
/** Long enough for a start on a busy machine, short of a process that never ends. */
const BOUND_MS = 30_000;

const NOTE = `defineResource({ name: 'Note', path: '/notes', schema: Type.Object({ id: Type.Readonly(Type.Integer()), text: Type.String() }) })`;
const NOTES_MIGRATION = `{ async up(db) {
  await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('email', 'text').addColumn('password_hash', 'text').addColumn('roles', 'text').addColumn('api_key_hash', 'text').execute();
  await db.schema.createTable('notes').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('text', 'text').execute();
} }`;

/** A project in a fresh directory: its app module declares `resources` and `migrations` (source text). */
function project(t: { after: (fn: () => void) => void }, resources = `[${NOTE}]`, migrations = `{ '001-notes': ${NOTES_MIGRATION} }`): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-start-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'notes', type: 'module', trellis: { app: 'src/app.ts' } }));
  writeFileSync(join(dir, 'src', 'app.ts'), `import { Type, defineResource } from '${INDEX}';\nexport const resources = ${resources};\nexport const migrations = ${migrations};\n`);
  return dir;
}

interface Run {
  code: number | null;
  stderr: string;
  killed: boolean;
}

/** `trellis <args>` in `dir`, killed past BOUND_MS. */
function trellis(dir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: dir, timeout: BOUND_MS, killSignal: 'SIGKILL', env: { ...ENV, PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'data.db')}`, PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}`, ...env } }, (_error, _stdout, stderr) => {
      resolve({ code: child.exitCode, stderr, killed: child.signalCode !== null });
    });
  });
}

/** `trellis serve` in `dir` with the profiler on (its thread, a SQLite store in `dir`), killed past BOUND_MS. */
function serve(dir: string, env: Record<string, string> = {}): Promise<Run> {
  return trellis(dir, ['serve'], env);
}

describe('trellis serve stops a start that cannot go on, and exits', () => {
  test('a port another process holds: one line naming HOST and PORT, status 1', async (t) => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    t.after(() => holder.close());
    const port = (holder.address() as { port: number }).port;
    const run = await serve(project(t), { PORT: String(port) });
    assert.deepEqual(run, { code: 1, stderr: `error 127.0.0.1:${port} is already in use by another process (HOST, PORT).\n`, killed: false });
  });

  test('a HOST no resolver knows: one line naming HOST, status 1', async (t) => {
    const run = await serve(project(t), { HOST: 'no-such-host.invalid' });
    assert.deepEqual(run, { code: 1, stderr: 'error no-such-host.invalid is not a host name this machine can resolve (HOST).\n', killed: false });
  });

  test('a file a variable names that cannot be used: one line naming the variable, status 1', async (t) => {
    const dir = project(t);
    const missing = join(dir, 'missing.pem');
    for (const [env, line] of [
      [{ TLS_CERT: missing, TLS_KEY: missing }, `TLS_CERT: cannot read "${missing}" (ENOENT)`],
      [{ JWT_PRIVATE_KEY: missing }, `JWT_PRIVATE_KEY: cannot read "${missing}" (ENOENT)`],
      [{ JWT_PRIVATE_KEY: join(dir, 'package.json') }, `JWT_PRIVATE_KEY: "${join(dir, 'package.json')}" is not a PEM private key`],
      [{ DATABASE_URL: `sqlite:${join(dir, 'package.json', 'x.db')}` }, `DATABASE_URL: cannot create the directory of "${join(dir, 'package.json', 'x.db')}": "${join(dir, 'package.json')}" is a file, not a directory`],
      [{ PROFILER_DSN: `sqlite:${join(dir, 'package.json', 'x.db')}` }, `PROFILER_DSN: cannot create the directory of "${join(dir, 'package.json', 'x.db')}": "${join(dir, 'package.json')}" is a file, not a directory`],
    ] as const) {
      const run = await serve(dir, env);
      assert.deepEqual(run, { code: 1, stderr: `error Configuration error: ${line}\n`, killed: false });
    }
  });

  test('a resource declaration that cannot work: one line naming the resource and the fix, status 1', async (t) => {
    for (const [resources, line] of [
      [`[defineResource({ name: 'Note', path: '/notes', schema: Type.Object({ id: Type.Readonly(Type.Integer()) }), operations: { getColection: true } })]`, 'Resource "Note": unknown operation "getColection"; did you mean "getCollection"? The built-in ones are getCollection, get, post, put, patch, delete; a custom operation needs a method'],
      [`[defineResource({ name: 'Note', path: 'notes', schema: Type.Object({ id: Type.Readonly(Type.Integer()) }) })]`, 'Resource "Note": path "notes" must start with "/" (e.g. "/notes")'],
      // Found when the app is built, not when the module loads.
      [`[${NOTE}, ${NOTE}]`, 'Two resources are named "Note"'],
    ] as const) {
      const run = await serve(project(t, resources));
      assert.deepEqual(run, { code: 1, stderr: `error ${line}\n`, killed: false });
    }
  });

  test('a programming error in the app module keeps its stack', async (t) => {
    const run = await serve(project(t, `(() => { throw new TypeError('resources is not iterable here'); })()`));
    assert.equal(run.code, 1);
    assert.match(run.stderr, /TypeError: resources is not iterable here\n {4}at .*src\/app\.ts:\d+/);
  });

  test('a migration that fails: the one line trellis migrate prints, status 1', async (t) => {
    const dir = project(t);
    // A table the first migration creates is there already (made by hand, or by another tool).
    const db = new DatabaseSync(join(dir, 'data.db'));
    db.exec('create table notes (id integer primary key)');
    db.close();
    const line = 'error Migration "001-notes" failed: table "notes" already exists\n';
    const migrating = await trellis(dir, ['migrate']);
    assert.deepEqual([migrating.code, migrating.stderr], [1, line]);
    const run = await serve(dir);
    assert.deepEqual(run, { code: 1, stderr: line, killed: false });
  });
});
