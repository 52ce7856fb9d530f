import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database.ts';
import { openProfileStorage } from '../profiler/storage/open-profile-storage.ts';

const dir = mkdtempSync(join(tmpdir(), 'trellis-sqlite-file-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'a-file');
writeFileSync(file, 'not a directory\n');
const directory = join(dir, 'a-directory');
mkdirSync(directory);
const retention = { maxProfiles: 10, ttlSeconds: 60 };

/** Paths SQLite cannot have, and the line each gives (after the variable's name). */
const cases: [string, string][] = [
  [join(file, 'x.db'), `cannot create the directory of "${join(file, 'x.db')}": "${file}" is a file, not a directory`],
  [join(file, 'deeper', 'x.db'), `cannot create the directory of "${join(file, 'deeper', 'x.db')}": "${file}" is a file, not a directory`],
  [directory, `"${directory}" is a directory`],
];

test('a DATABASE_URL file that cannot be made or opened is a ConfigError naming DATABASE_URL', () => {
  for (const [path, problem] of cases) {
    assert.throws(() => openDatabase(`sqlite:${path}`), (e: Error) => e.name === 'ConfigError' && e.message === `DATABASE_URL: ${problem}`, problem);
  }
});

test('a PROFILER_DSN file that cannot be made or opened is a ConfigError naming PROFILER_DSN', async () => {
  for (const [path, problem] of cases) {
    await assert.rejects(openProfileStorage(`sqlite:${path}`, retention), (e: Error) => e.name === 'ConfigError' && e.message === `PROFILER_DSN: ${problem}`, problem);
  }
});

test('a file in a directory still to be made is made, as before', async () => {
  const db = openDatabase(`sqlite:${join(dir, 'new', 'data.db')}`);
  await db.destroy();
  const store = await openProfileStorage(`sqlite:${join(dir, 'new', 'profiles', 'p.db')}`, retention);
  assert.deepEqual(await store.tokens(10), []);
  await store.close();
});
