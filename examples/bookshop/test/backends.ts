import { isPostgres, openDatabase, sql, type Database } from 'trellis';
import { postgresForTests, TEST_POSTGRES_URL } from 'trellis/testing';

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
        const schema = `bookshop_test_${process.pid}_${Date.now()}`;
        const admin = openDatabase(TEST_POSTGRES_URL);
        await sql`create schema ${sql.id(schema)}`.execute(admin);
        const db = openDatabase(TEST_POSTGRES_URL, { schema });
        if (!isPostgres(db)) throw new Error('expected PostgreSQL');
        return {
          db,
          async close() {
            await db.destroy();
            await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
            await admin.destroy();
          },
        };
      },
    },
  ];
}

export const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
export const ADMIN = basic('admin@bookshop.test', 'admin-password');
export const ALICE = basic('alice@bookshop.test', 'alice-password');
export const BOB = basic('bob@bookshop.test', 'bob-password');
