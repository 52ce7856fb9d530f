/**
 * `npm run seed -w bookshop [-- --reset]`: migrates and seeds the database named by DATABASE_URL.
 * Paths resolve from where npm was run (the repository root, like `npm start`). `--reset`
 * empties the shop first.
 */
import { isPostgres, loadConfig, migrate, openDatabase, sql } from 'trellis';
import { migrations } from '../migrations/index.ts';
import { seed, seedIfEmpty } from './seed.ts';

if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
try {
  process.loadEnvFile('.env');
} catch {
  // An .env file is optional.
}
const config = loadConfig();
const db = openDatabase(config.databaseUrl);
try {
  await migrate(db, migrations);
  if (process.argv.includes('--reset')) {
    // Identifiers restart too: the seed links rows by their position.
    if (isPostgres(db)) await sql`truncate reviews, books, authors, users restart identity cascade`.execute(db);
    else {
      for (const table of ['reviews', 'books', 'authors', 'users']) await db.deleteFrom(table).execute();
      await sql`delete from sqlite_sequence`.execute(db);
    }
    const counts = await seed(db);
    console.log(`Seeded ${counts.books} books, ${counts.authors} authors, ${counts.reviews} reviews, ${counts.users} users.`);
  } else if (await seedIfEmpty(db)) {
    console.log('Seeded the empty shop.');
  } else {
    console.log('The shop already has data; run with --reset to start over.');
  }
} finally {
  await db.destroy();
}
