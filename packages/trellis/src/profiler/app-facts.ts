import { redactPairs } from '../logging/redact-query.ts';
import { secretKeyMatcher } from '../logging/redact-secrets.ts';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';
import { Redaction } from './redact.ts';

/** What the Configuration panel shows: the running process, not a request (Symfony's config collector). */
export interface AppFacts {
  readonly versions: Readonly<Record<string, string>>;
  readonly environment: Readonly<Record<string, string>>;
  readonly features: Readonly<Record<string, string>>;
  readonly resources: readonly { readonly name: string; readonly path: string; readonly operations: readonly string[] }[];
  /**
   * The process environment: the values of the variables Trellis reads (SHOWN), secret-named ones
   * and URL passwords redacted; any other variable by name only, since nothing tells an app's
   * secret (STRIPE_SK=…) from its other settings.
   */
  readonly env: Readonly<Record<string, string>>;
}

const require = createRequire(import.meta.url);

/** A dependency's version, from the package.json above its entry point ('?' when it cannot be found). */
function versionOf(name: string): string {
  try {
    let dir = dirname(require.resolve(name));
    for (let i = 0; i < 8; i++, dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name) return pkg.version ?? '?';
      }
    }
  } catch {
    // Not installed (pg on SQLite-only apps): said so below.
  }
  return '?';
}

/** This package's version (package.json), or "?". */
let version: string | undefined;

/** Trellis's own version, from its package.json, read once (every HAR export names it). */
export function ownVersion(): string {
  if (version !== undefined) return version;
  try {
    version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '?';
  } catch {
    version = '?';
  }
  return version;
}

/** The variables Trellis reads (config.ts and the table in the README) whose values the panel shows. */
const SHOWN = new Set(['APP_DEBUG', 'BODY_LIMIT', 'BODY_MEMORY', 'CORS_ALLOW_ORIGIN', 'DATABASE_QUERY_TIMEOUT', 'DATABASE_URL', 'DATABASE_WAIT', 'HOST', 'HTTPS', 'JSON_MAX_DEPTH', 'JSON_MAX_MEMBERS', 'JWT_AUDIENCE', 'JWT_ISSUER', 'JWT_TTL', 'JWT_PUBLIC_KEY', 'LOGIN_ACCOUNT_THROTTLE', 'LOGIN_THROTTLE', 'LOG_LEVEL', 'NODE_ENV', 'PASSWORD_HASH_CONCURRENCY', 'PASSWORD_HASH_QUEUE', 'PORT', 'PROFILER', 'PROFILER_ALLOW', 'PROFILER_DSN', 'PROFILER_MAX_BACKLOG', 'PROFILER_MAX_BODY', 'PROFILER_MAX_PROFILES', 'PROFILER_ONLY', 'PROFILER_REDACT_KEYS', 'PROFILER_SAMPLE', 'PROFILER_TTL', 'REDIS_URL', 'REQUEST_TIMEOUT', 'TLS_CERT', 'TRUSTED_HOSTS', 'TRUSTED_PROXIES']);

/**
 * A connection URL's credentials replaced: the password of its userinfo up to the last "@" (a raw
 * "@" may stand in a password; a host never holds one: RFC 3986 §3.2), and a secret-named query
 * parameter (`redis://h:6379/0?password=…`, read by pg and ioredis alike). Other text unchanged.
 */
export function withoutUrlPassword(value: string, isSecret: (name: string) => boolean = secretKeyMatcher()): string {
  const userinfo = value.replace(/(\b[a-z][\w+.-]*:\/\/[^/:@\s]*:)[^/?#\s]*@/gi, '$1[redacted]@');
  const q = userinfo.indexOf('?');
  if (!/^[a-z][\w+.-]*:/i.test(userinfo) || q < 0) return userinfo;
  return `${userinfo.slice(0, q + 1)}${redactPairs(userinfo.slice(q + 1), isSecret)}`;
}

export function appFacts(app: FastifyInstance, config: TrellisConfig): AppFacts {
  const redaction = new Redaction(config.profiler.redactKeys);
  const isSecret = secretKeyMatcher(config.profiler.redactKeys);
  const set = Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string').sort(([a], [b]) => a.localeCompare(b));
  const env = redaction.fields(Object.fromEntries(set.map(([k, v]) => [k, SHOWN.has(k) ? v : '(set, not shown)'])));
  const registry = (app as { resources?: FastifyInstance['resources'] }).resources?.registry;
  return {
    versions: {
      Trellis: ownVersion(),
      'Node.js': process.versions.node,
      V8: process.versions.v8,
      Fastify: app.version,
      Kysely: versionOf('kysely'),
      TypeBox: versionOf('@sinclair/typebox'),
      pino: versionOf('pino'),
      pg: versionOf('pg'),
      ioredis: versionOf('ioredis'),
    },
    environment: {
      'Environment (NODE_ENV)': config.env,
      Debug: config.debug ? 'on' : 'off',
      'Log level': config.logLevel,
      Listening: `${config.host}:${config.port}`,
      Database: withoutUrlPassword(config.databaseUrl, isSecret),
    },
    features: {
      'Profile store': withoutUrlPassword(config.profiler.dsn, isSecret),
      'Profiler allowed to': config.profiler.allow.length > 0 ? config.profiler.allow.join(', ') : 'loopback only',
      'Profile body limit': `${config.profiler.maxBodyBytes} bytes`,
      'Recording': config.profiler.keep.only ? `only ${[config.profiler.keep.only.errors ? 'errors' : '', config.profiler.keep.only.slowMs !== null ? `slow (${config.profiler.keep.only.slowMs} ms)` : ''].filter(Boolean).join(' and ')}` : config.profiler.keep.sample >= 1 ? 'every request' : `${config.profiler.keep.sample * 100} % of requests, failures and slow ones always`,
      TLS: config.tls ? `certificate ${config.tls.certFile}` : config.selfSignedHttps ? 'self-signed (HTTPS=1)' : 'off',
      'CORS origins': String(config.corsAllowOrigin),
      'Trusted proxies': config.trustedProxies.join(', ') || '(none)',
      'Trusted hosts': config.trustedHosts.map(String).join(', ') || '(any)',
      'Body limit': `${config.bodyLimit} bytes`,
      'Body memory': `${config.bodyMemory} bytes`,
      'JSON depth limit': String(config.jsonMaxDepth),
      'JSON members limit': String(config.jsonMaxMembers),
      'Request timeout': `${config.requestTimeoutMs} ms`,
      'Login throttle': config.loginThrottle.perClient ? `${config.loginThrottle.perClient.max} per ${config.loginThrottle.perClient.windowSeconds} s per client` : 'off',
    },
    resources: (registry?.resources ?? []).map((r) => ({ name: r.name, path: r.path, operations: r.operations.map((o) => `${o.name} (${o.method} ${o.path})`) })),
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, withoutUrlPassword(String(v), isSecret)])),
  };
}
