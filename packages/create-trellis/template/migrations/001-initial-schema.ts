import { isPostgres, type ColumnDefinitionBuilder, type Kysely } from 'trellis';

/** Users (the firewall reads them) and tasks, on SQLite and PostgreSQL alike. */
export async function up(db: Kysely<any>): Promise<void> {
  const id = (c: ColumnDefinitionBuilder) => (isPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('["ROLE_USER"]'))
    .addColumn('api_key_hash', 'text')
    .execute();
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'integer', id)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('done', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tasks').execute();
  await db.schema.dropTable('users').execute();
}
