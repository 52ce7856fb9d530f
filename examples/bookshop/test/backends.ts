import { isPostgres, openDatabase, type Database } from 'trellis';
import { openTestSchema, postgresForTests } from 'trellis/testing';

export interface ShopDatabase {
  readonly db: Database;
  close(): Promise<void>;
}

/** SQLite in memory, and PostgreSQL in a schema of its own (dropped on close) when the server is reachable. */
export async function backends(): Promise<{ name: string; skip: string | false; open: () => Promise<ShopDatabase> }[]> {
  const pg = await postgresForTests();
  return [
    {
      name: 'SQLite',
      skip: false,
      open: async () => {
        const db = openDatabase('sqlite::memory:');
        return { db, close: () => db.destroy() };
      },
    },
    {
      name: 'PostgreSQL',
      skip: pg.skip,
      open: async () => {
        const opened = await openTestSchema('bookshop_test');
        if (!isPostgres(opened.db)) throw new Error('expected PostgreSQL');
        return opened;
      },
    },
  ];
}

export const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
export const ADMIN = basic('admin@bookshop.test', 'admin-password');
export const ALICE = basic('alice@bookshop.test', 'alice-password');
export const BOB = basic('bob@bookshop.test', 'bob-password');
