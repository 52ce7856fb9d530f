import { loadConfig, ConfigError, type TrellisConfig } from '../app/config.ts';
import { CliError } from './cli-error.ts';

/** The environment, with the project's optional `.env` under it (the shell wins). */
export function loadEnv(root: string): NodeJS.ProcessEnv {
  try {
    process.loadEnvFile(`${root}/.env`);
  } catch {
    // An .env file is optional.
  }
  return process.env;
}

/** loadConfig, with a bad variable reported as one line naming it. */
export function cliConfig(env: Record<string, string | undefined>): TrellisConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError('config', `Configuration error: ${error.message}`);
    throw error;
  }
}

/**
 * A configuration for commands that only read the declarations (openapi, routes): nothing is
 * opened, listened on or written; the database is an empty in-memory one.
 */
export function declarationsConfig(production: boolean): TrellisConfig {
  return cliConfig({
    NODE_ENV: production ? 'production' : 'development',
    APP_DEBUG: production ? '0' : '1',
    PROFILER_DSN: 'memory:',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: 'declarations-only-declarations-only-0',
  });
}
