import { ConfigError, createApp, loadConfig, serve } from 'trellis';

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
  const app = await createApp({ config, name: 'Bookshop' });
  await serve(app, config);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}
