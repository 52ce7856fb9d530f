import { isPostgres, sql, type ColumnDefinitionBuilder, type Kysely } from 'trellis';

/** The bookshop schema, portable between SQLite and PostgreSQL. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  const timestamp = pg ? sql`timestamptz` : sql`text`;
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const date = pg ? sql`date` : sql`text`;
  const money = pg ? sql`numeric(10, 2)` : sql`real`;

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('["ROLE_USER"]'))
    .addColumn('api_key_hash', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('users_api_key_hash').on('users').column('api_key_hash').execute();

  await db.schema
    .createTable('authors')
    .addColumn('id', 'integer', id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('birth_date', date)
    .addColumn('biography', 'text')
    .execute();

  await db.schema
    .createTable('books')
    .addColumn('id', 'integer', id)
    .addColumn('isbn', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('author_id', 'integer', (c) => c.notNull().references('authors.id'))
    .addColumn('publication_date', date, (c) => c.notNull())
    .addColumn('price', money, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('books_author_id').on('books').column('author_id').execute();
  await db.schema.createIndex('books_publication_date').on('books').column('publication_date').execute();
  await db.schema.createIndex('books_title').on('books').column('title').execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'integer', id)
    .addColumn('rating', 'integer', (c) => c.notNull().check(sql`rating between 0 and 5`))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('publication_date', timestamp, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('reviews_book_id').on('reviews').column('book_id').execute();
  await db.schema.createIndex('reviews_author_id').on('reviews').column('author_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['reviews', 'books', 'authors', 'users']) await db.schema.dropTable(table).execute();
}
