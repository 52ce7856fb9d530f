import { ConfigError, DatabaseUnreachableError, DefinitionError, ListenError, MigrationError, loadConfig, openDatabase, serve, waitForDatabase } from 'trellis';

try {
  process.loadEnvFile('.env');
} catch {
  // An .env file is optional.
}

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof DatabaseUnreachableError) {
    console.error(`Database error: ${error.message}`);
    process.exit(1);
  }
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}

try {
  // Loaded here, not imported above: a resource declaration that cannot work throws as its module
  // loads (DefinitionError), and is said in one line below rather than as a stack.
  const { createBookshop } = await import('./bookshop.ts');
  const database = openDatabase(config.databaseUrl, { queryTimeoutMs: config.databaseQueryTimeoutMs });
  // A database still starting (a container, a restart) is waited for, within DATABASE_WAIT.
  await waitForDatabase(database, config.databaseUrl, { timeoutMs: config.databaseWaitMs, onWaiting: (line) => console.error(line) });
  // First start: migrations and the seed (a few seconds); later starts find both done.
  const app = await createBookshop({ config, database });
  app.addHook('onClose', () => database.destroy());
  await serve(app, config);
} catch (error) {
  if (error instanceof DatabaseUnreachableError) {
    console.error(`Database error: ${error.message}`);
    process.exit(1);
  }
  if (error instanceof ListenError) {
    console.error(`Cannot listen: ${error.message}`);
    process.exit(1);
  }
  if (error instanceof DefinitionError) {
    console.error(`Definition error: ${error.message}`);
    process.exit(1);
  }
  if (error instanceof MigrationError) {
    // 'Migration "…" failed: …', as `trellis migrate` says it: the fix is in the migration or the database.
    console.error(error.message);
    process.exit(1);
  }
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}
