import { hashPassword, isPostgres, sql, type Database } from 'trellis';
import { withCheckDigit } from './resources/isbn.ts';
import { ADJECTIVES, BLURBS, CLASSICS, FIRST_NAMES, LAST_NAMES, NOUNS, PATTERNS, REVIEW_LINES } from './seed-data.ts';

/**
 * The accounts documented in README.md. Their passwords are public, so their scrypt hashes (at
 * the default cost) are computed once and kept here: hashing three at start cost a fresh shop
 * about two seconds. The test in seed.test.ts checks each hash matches its password.
 */
export const SEED_USERS = [
  { email: 'admin@bookshop.test', password: 'admin-password', roles: ['ROLE_ADMIN'], passwordHash: 'scrypt$131072$8$1$qEXjLYLaSNXCcj_gUvgg5g$JKLquoYwDaEKWtwGUG7C06Fitgy1apWyxwrIhvzYseo' },
  { email: 'alice@bookshop.test', password: 'alice-password', roles: ['ROLE_USER'], passwordHash: 'scrypt$131072$8$1$saZsDy4I95SC_bBFBI543A$OntsHU-wVxzmXzAHJmcru5Dp5pDZ8Gh3rTBaTusjCS8' },
  { email: 'bob@bookshop.test', password: 'bob-password', roles: ['ROLE_USER'], passwordHash: 'scrypt$131072$8$1$f5WmVPpThW3Zegom4KhvVw$9JF_Pt5t9sNslyVy3ULZjI_TlcjIeXofDINjhYukIeY' },
] as const;

/** A small deterministic PRNG (mulberry32), so every fresh shop has the same catalogue. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedOptions {
  readonly books?: number;
  /** scrypt cost to hash the seeded passwords with instead of the kept hashes; tests lower it so logins are fast. */
  readonly passwordCost?: number;
}

async function insertChunked(db: Database, table: string, rows: Record<string, unknown>[]): Promise<void> {
  // SQLite caps bound parameters per statement; 100 rows × ≤7 columns stays well under it.
  for (let i = 0; i < rows.length; i += 100) await db.insertInto(table).values(rows.slice(i, i + 100)).execute();
}

type SeedCounts = { users: number; authors: number; books: number; reviews: number };

async function seedUsers(options: SeedOptions): Promise<Record<string, unknown>[]> {
  const cost = options.passwordCost;
  return Promise.all(
    SEED_USERS.map(async (u) => ({ email: u.email, password_hash: cost ? await hashPassword(u.password, { N: cost, r: 8, p: 1 }) : u.passwordHash, roles: JSON.stringify(u.roles) })),
  );
}

/** Fills an empty shop: 3 users, the classics plus generated authors, `books` books, reviews. */
export async function seed(db: Database, options: SeedOptions = {}): Promise<SeedCounts> {
  const users = await seedUsers(options);
  return db.transaction().execute((trx) => fill(trx, users, options));
}

/** The seed's rows, written in the caller's transaction. */
async function fill(trx: Database, users: Record<string, unknown>[], options: SeedOptions): Promise<SeedCounts> {
  const rand = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const bookCount = options.books ?? 400;
  await insertChunked(trx, 'users', users);
  const authors = CLASSICS.map((c) => ({ name: c.author, birth_date: c.born, biography: `${c.author} wrote ${c.titles.map((t) => t[0]).join(', ')}.` }));
  const names = new Set(authors.map((a) => a.name));
  while (authors.length < 60) {
    const name = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
    if (names.has(name)) continue;
    names.add(name);
    const year = 1940 + Math.floor(rand() * 60);
    authors.push({ name, birth_date: `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`, biography: null as unknown as string });
  }
  await insertChunked(trx, 'authors', authors);

  const books: Record<string, unknown>[] = [];
  const titles = new Set<string>();
  let isbn = 0;
  const nextIsbn = () => withCheckDigit(`978${String(1_000_000_00 + isbn++ * 7919).padStart(9, '0')}`);
  CLASSICS.forEach((c, authorIndex) => {
    for (const [title, date] of c.titles) {
      titles.add(title);
      books.push({ isbn: nextIsbn(), title, description: pick(BLURBS), author_id: authorIndex + 1, publication_date: date, price: Math.round((6 + rand() * 20) * 100) / 100 });
    }
  });
  while (books.length < bookCount) {
    const title = pick(PATTERNS).replace('{adj}', pick(ADJECTIVES)).replace('{noun}', pick(NOUNS));
    if (titles.has(title)) continue;
    titles.add(title);
    const year = 1990 + Math.floor(rand() * 35);
    books.push({
      isbn: nextIsbn(),
      title,
      description: rand() < 0.85 ? pick(BLURBS) : null,
      author_id: CLASSICS.length + 1 + Math.floor(rand() * (authors.length - CLASSICS.length)),
      publication_date: `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`,
      price: Math.round((8 + rand() * 32) * 100) / 100,
    });
  }
  await insertChunked(trx, 'books', books);

  const reviews: Record<string, unknown>[] = [];
  for (let bookId = 1; bookId <= books.length; bookId++) {
    const n = Math.floor(rand() * 4);
    for (let i = 0; i < n; i++) {
      const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(rand() * 600) * 86_400_000);
      reviews.push({ rating: Math.floor(rand() * 6), body: pick(REVIEW_LINES), author_id: 2 + Math.floor(rand() * 2), book_id: bookId, publication_date: day.toISOString() });
    }
  }
  await insertChunked(trx, 'reviews', reviews);
  return { users: users.length, authors: authors.length, books: books.length, reviews: reviews.length };
}

const hasUsers = async (db: Database) => Number((await db.selectFrom('users').select(db.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0) > 0;

/**
 * Seeds only a shop that has no users yet: later starts skip straight to serving. Processes
 * starting at once on an empty database (replicas) seed it once: the emptiness is checked again
 * in the seed's transaction, which holds a lock the others wait for (an advisory lock on
 * PostgreSQL; on SQLite the transaction's `begin immediate`), so the second finds the first's rows
 * instead of failing on "duplicate key value violates unique constraint users_email_key".
 */
export async function seedIfEmpty(db: Database, options: SeedOptions = {}): Promise<boolean> {
  if (await hasUsers(db)) return false;
  const users = await seedUsers(options);
  return db.transaction().execute(async (trx) => {
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.bookshop-seed'))`.execute(trx);
    if (await hasUsers(trx)) return false;
    await fill(trx, users, options);
    return true;
  });
}
