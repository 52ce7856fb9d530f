import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

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
  data TEXT NOT NULL
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
 * Opens the profile database (WAL, so the writer and the readers do not block each other). The
 * connection that opens it first creates the schema; a second connection (the writer thread)
 * opens it as it is.
 */
export function openProfileDatabase(path: string, createSchema: boolean): DatabaseSync {
  if (createSchema && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  if (createSchema) db.exec(SCHEMA);
  return db;
}
