import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openProfileDatabase, PROFILE_PAGE_SIZE } from './sqlite-profile-schema.ts';
import { recordOf } from '../stored-profile.ts';
import { SqliteProfileStorage } from './sqlite-profile-storage.ts';
import { syntheticProfiles } from './synthetic-profiles.ts';

const dir = mkdtempSync(join(tmpdir(), 'trellis-profiler-schema-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const retention = { maxProfiles: 100, ttlSeconds: 86400 };

const pragma = (db: DatabaseSync, name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get() as object)[0];

test('a new store: 16 KiB pages, WAL, writes left to the OS to sync', () => {
  const db = openProfileDatabase(join(dir, 'new.db'), true);
  try {
    assert.equal(pragma(db, 'page_size'), PROFILE_PAGE_SIZE);
    assert.equal(pragma(db, 'journal_mode'), 'wal');
    assert.equal(pragma(db, 'synchronous'), 0);
  } finally {
    db.close();
  }
});

test('a store made with 4 KiB pages is rebuilt with 16 KiB ones and keeps its profiles', async () => {
  const path = join(dir, 'old.db');
  const first = new SqliteProfileStorage(path, retention, { writer: 'inline' });
  const [profile] = [...syntheticProfiles(1)];
  await first.write(recordOf(profile!));
  await first.close();
  // As an earlier version left it: SQLite's default page size.
  const old = new DatabaseSync(path);
  old.exec('PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL;');
  assert.equal(pragma(old, 'page_size'), 4096);
  old.close();

  const db = openProfileDatabase(path, true);
  try {
    assert.equal(pragma(db, 'page_size'), PROFILE_PAGE_SIZE);
    assert.equal(pragma(db, 'journal_mode'), 'wal');
    assert.equal((db.prepare('SELECT token FROM profiles').get() as { token: string }).token, profile!.token);
  } finally {
    db.close();
  }
});

test('a file that is not a database is set aside with a warning, and an empty store opens', async () => {
  const path = join(dir, 'garbage.db');
  const garbage = 'not a database, '.repeat(512);
  writeFileSync(path, garbage);
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    const store = new SqliteProfileStorage(path, retention, { writer: 'inline' });
    const [profile] = [...syntheticProfiles(1)];
    await store.write(recordOf(profile!));
    assert.equal((await store.read(profile!.token))?.token, profile!.token);
    await store.close();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  assert.equal(readFileSync(`${path}.corrupt`, 'utf8'), garbage);
  assert.equal(warnings.length, 1);
  assert.equal((warnings[0] as Error & { code?: string }).code, 'TRELLIS_PROFILE_STORE_RESET');
  assert.equal(warnings[0]!.message, `The profile store ${path} could not be read (file is not a database); it was moved to ${path}.corrupt and an empty store started.`);
  assert.ok(existsSync(path));
});

test('a store made before pins gets the pinned column and index, and keeps its profiles', async () => {
  const path = join(dir, 'before-pins.db');
  const old = new DatabaseSync(path);
  old.exec(`CREATE TABLE profiles (seq INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE, parent TEXT, ip TEXT NOT NULL, method TEXT NOT NULL,
    url TEXT NOT NULL, time INTEGER NOT NULL, status INTEGER NOT NULL, duration REAL NOT NULL, data TEXT NOT NULL)`);
  old.prepare('INSERT INTO profiles (token, parent, ip, method, url, time, status, duration, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run('0ld001', null, '127.0.0.1', 'GET', 'http://h/', Date.now(), 200, 1, '{}');
  old.close();
  const store = new SqliteProfileStorage(path, retention);
  try {
    assert.equal((await store.read('0ld001'))?.token, '0ld001');
    assert.equal(await store.pin('0ld001', true), true);
    assert.deepEqual((await store.find({ pinned: true, limit: 5 })).map((s) => [s.token, s.pinned]), [['0ld001', true]]);
  } finally {
    await store.close();
  }
  const db = new DatabaseSync(path);
  try {
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'profiles'").all().map((r) => (r as { name: string }).name);
    assert.ok(indexes.includes('profiles_pinned'), indexes.join(', '));
  } finally {
    db.close();
  }
});
