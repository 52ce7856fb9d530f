import { ConfigError, loadConfig, openDatabase, serve } from 'trellis';
import { buildApp } from './app.ts';

try {
  process.loadEnvFile('.env');
} catch {
  // An .env file is optional: copy .env.example to start one.
}

try {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  const app = await buildApp({ config, database });
  app.addHook('onClose', () => database.destroy());
  await serve(app, config);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}
