import { join } from 'node:path';
import type { ServerSpec } from '../lib/server-process.ts';
import { RAW_SCRIPT } from '../lib/compare-servers.ts';

/** The servers scenarios pick from. Every Trellis server logs to /dev/null (see servers/quiet-logger.ts). */

export const rawNode = (): ServerSpec => ({
  name: 'raw-node',
  script: RAW_SCRIPT,
  description: 'ceiling: bare node:http sending the captured bytes',
});

export const fastifyBaseline = (env: Record<string, string> = {}): ServerSpec => ({
  name: 'fastify-baseline',
  script: 'bench/servers/fastify-baseline.ts',
  env,
  description: 'baseline: hand-written plain Fastify' + (env.DATABASE_URL ? ' + Kysely, same query and bytes' : ', same bytes'),
});

/**
 * `LOG_LEVEL=warn` in production: a production Trellis writes one info line per request, which
 * the brief asks to leave out of the figure (a real deployment ships logs elsewhere).
 */
export const PRODUCTION_ENV = { NODE_ENV: 'production', APP_DEBUG: '0', LOG_LEVEL: 'warn' };

/** The debug configuration as `npm start` runs it (LOG_LEVEL=debug, records kept per request). */
export const DEBUG_ENV = { NODE_ENV: 'development', APP_DEBUG: '1', LOG_LEVEL: 'debug' };

export type ProfilerStore = 'sqlite' | 'redis';

export function profilerEnv(store: ProfilerStore | null, workDir: string, label: string): Record<string, string> {
  if (store === null) return { PROFILER: '0' };
  if (store === 'sqlite') return { PROFILER: '1', PROFILER_DSN: `sqlite:${join(workDir, `profiler-${label}-${process.pid}.db`)}` };
  // A key prefix of the run's own: run.ts sweeps `bench:*:<pid>:*` at the end.
  return { PROFILER: '1', PROFILER_DSN: `redis://127.0.0.1:6379/15?prefix=bench:${label}:${process.pid}:` };
}

/** A Trellis app with no resources (kernel + one JSON route), named `<prefix>-prod`, `<prefix>-debug`, `<prefix>-debug-profiler-sqlite`… */
export function trellisServer(script: string, prefix: string, mode: 'prod' | 'debug', store: ProfilerStore | null, workDir: string, extraEnv: Record<string, string> = {}): ServerSpec {
  const name = mode === 'prod' ? `${prefix}-prod` : store === null ? `${prefix}-debug` : `${prefix}-debug-profiler-${store}`;
  const env = mode === 'prod' ? { ...PRODUCTION_ENV, ...extraEnv } : { ...DEBUG_ENV, ...profilerEnv(store, workDir, name), ...extraEnv };
  const description =
    mode === 'prod' ? 'NODE_ENV=production, LOG_LEVEL=warn' : store === null ? 'debug configuration, profiler off (PROFILER=0)' : `debug configuration, profiler on, ${store} storage`;
  return { name, script, env, description };
}
