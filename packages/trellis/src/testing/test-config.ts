import { loadConfig, type TrellisConfig } from '../app/config.ts';

/**
 * A configuration for tests: debug on, in-memory profiler and database, quiet logs, unless the
 * given variables say otherwise. Never reads process.env, so tests do not depend on the shell.
 */
export function testConfig(env: Record<string, string | undefined> = {}): TrellisConfig {
  return loadConfig({
    LOG_LEVEL: 'silent',
    PROFILER_DSN: 'memory:',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...env,
  });
}
