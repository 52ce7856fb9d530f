import { renameSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { unobserved } from '../../data/observe-sqlite.ts';
import { makeSqliteDirectory, openingSqliteFile } from '../../data/sqlite-file.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS profiles (
  seq INTEGER PRIMARY KEY,
  token TEXT NOT NULL UNIQUE,
  parent TEXT,
  ip TEXT NOT NULL,
  method TEXT NOT NULL,
  url TEXT NOT NULL,
  time INTEGER NOT NULL,
  status INTEGER NOT NULL,
  duration REAL NOT NULL,
  data TEXT NOT NULL,
  pinned INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS profiles_time_url ON profiles (time, seq, url);
CREATE INDEX IF NOT EXISTS profiles_method_time ON profiles (method, time);
CREATE INDEX IF NOT EXISTS profiles_status_time ON profiles (status, time);
CREATE INDEX IF NOT EXISTS profiles_ip_time ON profiles (ip, time);
DROP INDEX IF EXISTS profiles_time;
DROP TABLE IF EXISTS profiles_url_0;
DROP TABLE IF EXISTS profiles_url_1;
`;

/**
 * Page size of the store. A profile row is about 2 KB of JSON: with SQLite's default 4 KiB pages
 * only one fits a page, so every insert allocated and wrote a page of its own. At 16 KiB seven fit,
 * and an insert (five indexes, retention) cost 14 µs instead of 26 µs on tmpfs here. Larger pages
 * gained nothing more: each transaction also rewrites a leaf page of every index.
 */
export const PROFILE_PAGE_SIZE = 16_384;

/** SQLITE_CORRUPT and SQLITE_NOTADB: the file is not (or no longer) a database. */
const UNREADABLE = new Set([11, 26]);

/**
 * Opens the profile database (WAL, so the writer and the readers do not block each other). The
 * connection that opens it first creates the schema; a second connection (the writer thread)
 * opens it as it is.
 *
 * The store is a cache of recent requests, not data of record, so its writes are not synced to the
 * disk (`synchronous = OFF`). A crash of the app loses nothing SQLite wrote (the OS has it); an OS
 * crash or a power cut can leave the file corrupt. With `NORMAL`, every checkpoint made the disk
 * take each page twice (21 KB written per 2 KB profile) and an insert cost 53 µs instead of 14 µs.
 * So the connection that creates the schema sets an unreadable file aside (`<file>.corrupt`, with a
 * process warning) and starts an empty store.
 */
export function openProfileDatabase(path: string, createSchema: boolean): DatabaseSync {
  if (!createSchema || path === ':memory:') return prepare(path, createSchema);
  makeSqliteDirectory(path, 'PROFILER_DSN');
  try {
    return openingSqliteFile(path, 'PROFILER_DSN', () => prepare(path, true));
  } catch (error) {
    if (!UNREADABLE.has((error as { errcode?: number }).errcode ?? 0)) throw error;
    setAside(path, error as Error);
    return prepare(path, true);
  }
}

function prepare(path: string, createSchema: boolean): DatabaseSync {
  // The profiler's own queries are not the app's: never in a profile's Database panel.
  const db = unobserved(new DatabaseSync(path));
  try {
    // Takes effect on a new file only (before its first table); an older store is converted below.
    db.exec(`PRAGMA page_size = ${PROFILE_PAGE_SIZE}; PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA busy_timeout = 5000;`);
    if (createSchema) {
      db.exec(SCHEMA);
      addPins(db);
      convertPageSize(db);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Pinned profiles (exempt from retention): a column, added to a store made before pins, and a
 * partial index holding only the pinned rows, so finding them (and the pinned ones among the
 * newest, for retention) reads a few entries whatever the store's size.
 */
function addPins(db: DatabaseSync): void {
  const columns = db.prepare('PRAGMA table_info(profiles)').all().map((c) => (c as { name: string }).name);
  if (!columns.includes('pinned')) db.exec('ALTER TABLE profiles ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0');
  db.exec('CREATE INDEX IF NOT EXISTS profiles_pinned ON profiles (time, seq) WHERE pinned = 1');
}

/**
 * A store made with smaller pages is rebuilt with `PROFILE_PAGE_SIZE` ones, once. A WAL database
 * keeps its page size, so it leaves WAL for the VACUUM. Another process holding the file open
 * makes it busy: the store then stays as it is, which only costs speed.
 */
function convertPageSize(db: DatabaseSync): void {
  const { page_size: size } = db.prepare('PRAGMA page_size').get() as { page_size: number };
  if (size === PROFILE_PAGE_SIZE || db.location() === null) return;
  try {
    db.exec(`PRAGMA busy_timeout = 0; PRAGMA journal_mode = DELETE; PRAGMA page_size = ${PROFILE_PAGE_SIZE}; VACUUM;`);
  } catch {
    // Busy (another connection has it open) or no room for the copy: the store keeps its pages.
  } finally {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;');
  }
}

function setAside(path: string, error: Error): void {
  renameSync(path, `${path}.corrupt`);
  for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
  process.emitWarning(`The profile store ${path} could not be read (${error.message}); it was moved to ${path}.corrupt and an empty store started.`, {
    code: 'TRELLIS_PROFILE_STORE_RESET',
  });
}
