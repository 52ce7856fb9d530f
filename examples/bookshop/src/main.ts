import { ConfigError, loadConfig, openDatabase, serve } from 'trellis';
import { createBookshop } from './bookshop.ts';

try {
  process.loadEnvFile('.env');
} catch {
  // An .env file is optional.
}

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}

try {
  const database = openDatabase(config.databaseUrl);
  // First start: migrations and the seed (a few seconds); later starts find both done.
  const app = await createBookshop({ config, database });
  app.addHook('onClose', () => database.destroy());
  await serve(app, config);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}
