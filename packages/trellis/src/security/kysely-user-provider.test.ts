import { after } from 'node:test';
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { postgresForTests } from '../testing/services.ts';
import { NodeSqliteDialect } from '../data/node-sqlite-dialect.ts';
import { KyselyUserProvider } from './kysely-user-provider.ts';
import { FIXTURE_USERS, userProviderContract } from './user-provider.contract.ts';

/** The bookshop's `users` table, as the security layer expects it. */
async function createUsers(db: Kysely<any>, idType: 'serial' | 'integer'): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', idType, (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('api_key_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo('2026-01-01T00:00:00Z'))
    .execute();
  await db
    .insertInto('users')
    .values(FIXTURE_USERS.map((u) => ({ id: u.id, email: u.email, password_hash: u.passwordHash, roles: JSON.stringify(u.roles), api_key_hash: u.apiKeyHash })))
    .execute();
}

const sqlite = new Kysely<any>({ dialect: new NodeSqliteDialect(new DatabaseSync(':memory:')) });
await createUsers(sqlite, 'integer');
userProviderContract('kysely on node:sqlite', async () => new KyselyUserProvider(sqlite));

const postgres = await postgresForTests();
const schema = `trellis_security_${randomBytes(4).toString('hex')}`;
let pgDb: Kysely<any> | null = null;
if (postgres.url !== null) {
  pgDb = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: postgres.url, max: 2 }) }) });
  await sql`create schema ${sql.id(schema)}`.execute(pgDb);
  await createUsers(pgDb.withSchema(schema), 'integer');
}
after(async () => {
  await sqlite.destroy();
  if (pgDb) {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(pgDb);
    await pgDb.destroy();
  }
});
userProviderContract('kysely on PostgreSQL', async () => new KyselyUserProvider(pgDb!.withSchema(schema)), { skip: postgres.skip });
