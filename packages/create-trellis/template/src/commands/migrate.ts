// npm run migrate: brings the database DATABASE_URL names up to date and says what it applied.
import { loadConfig, migrate, openDatabase } from 'trellis';
import { migrations } from '../../migrations/index.ts';

try {
  process.loadEnvFile('.env');
} catch {
  // optional
}
const database = openDatabase(loadConfig().databaseUrl);
try {
  const { results = [] } = await migrate(database, migrations);
  for (const r of results) console.log(`${r.status === 'Success' ? 'applied' : r.status}: ${r.migrationName}`);
  if (results.length === 0) console.log('Nothing to apply: the schema is up to date.');
} finally {
  await database.destroy();
}
