/**
 * Several processes starting on one new SQLite file at once (`npm start` twice, a CLI `trellis
 * migrate` beside a running app): each migration runs once and no process fails. Found attacking
 * the real server: the second process read "nothing applied" and died on "table already exists",
 * because Kysely's SQLite adapter ran migrations outside a transaction. Processes, not connections:
 * node:sqlite waits for a lock synchronously, so two connections in one thread would wait on
 * each other.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const MIGRATE = `
import { sql } from 'kysely';
import { migrate } from ${JSON.stringify(new URL('../../src/data/migrate.ts', import.meta.url).href)};
import { openDatabase } from ${JSON.stringify(new URL('../../src/data/database.ts', import.meta.url).href)};
const db = openDatabase('sqlite:' + process.argv[1]);
const result = await migrate(db, {
  '001-runs': { up: async (d) => void (await d.schema.createTable('runs').addColumn('name', 'text').execute()) },
  '002-first': { up: async (d) => void (await d.insertInto('runs').values({ name: '002' }).execute()) },
  '003-slow': { up: async (d) => { await new Promise((r) => setTimeout(r, 150)); await d.insertInto('runs').values({ name: '003' }).execute(); } },
});
console.log(JSON.stringify(result.results.filter((r) => r.status === 'Success').map((r) => r.migrationName)));
await db.destroy();
`;

function migrateIn(file: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=trellis-source', '--input-type=module', '-e', MIGRATE, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

test('four processes migrating one new SQLite file at once: each migration once, none fails', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-migrate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'app.db');
  const runs = await Promise.all(Array.from({ length: 4 }, () => migrateIn(file)));
  for (const run of runs) assert.equal(run.code, 0, run.err);
  const applied = runs.flatMap((r) => JSON.parse(r.out) as string[]).sort();
  assert.deepEqual(applied, ['001-runs', '002-first', '003-slow'], 'each migration applied by exactly one process');
  const db = new DatabaseSync(file);
  t.after(() => db.close());
  assert.deepEqual(db.prepare('select name from runs order by name').all().map((r) => r.name), ['002', '003']);
});
