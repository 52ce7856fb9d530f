import { ConfigError, addresses, bool, bytes, duration, headerNames, int, list, parsedUrl, rate, regex, str, type Env } from './env-parsers.ts';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';
import { parseOnly, type KeepSettings } from '../profiler/keep-policy.ts';

export { ConfigError };

/** What cross-origin browser code may send and read (Fetch standard, CORS protocol). */
export interface CorsConfig {
  /** Request headers a preflight allows (CORS_ALLOW_HEADERS). */
  readonly allowHeaders: readonly string[];
  /** Response headers the page may read (CORS_EXPOSE_HEADERS). */
  readonly exposeHeaders: readonly string[];
  /** Whether cookies and HTTP auth may be sent (CORS_ALLOW_CREDENTIALS). */
  readonly allowCredentials: boolean;
  /** How long a browser may cache a preflight's answer, in seconds (CORS_MAX_AGE). */
  readonly maxAgeSeconds: number;
}

/**
 * Defaults that make the framework's own features usable from a page on another origin, and
 * nothing it does not implement: bearer tokens and API keys, JSON bodies, conditional requests
 * (If-Match, If-None-Match) sent; Link (pagination, docs), ETag, Location (a created resource),
 * Retry-After (429, 503) and the profiler's tokens read.
 */
export const DEFAULT_CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'X-API-Key'] as const;
export const DEFAULT_CORS_EXPOSE_HEADERS = ['Link', 'ETag', 'Location', 'Retry-After', 'X-Debug-Token', 'X-Debug-Token-Link'] as const;

export interface ProfilerConfig {
  /** `sqlite:<path>`, `memory:` or `redis://…`. */
  readonly dsn: string;
  readonly maxProfiles: number;
  readonly ttlSeconds: number;
  /** Who may open the profiler besides loopback clients: IPs or CIDRs. */
  readonly allow: readonly string[];
  readonly maxBodyBytes: number;
  /** Key fragments whose values are redacted before storage. */
  readonly redactKeys: readonly string[];
  /** Bytes of profiles waiting to be stored past which new ones are dropped (PROFILER_MAX_BACKLOG). */
  readonly maxBacklogBytes: number;
  /** Which requests are recorded (PROFILER_SAMPLE, PROFILER_ONLY; see profiler/keep-policy.ts). */
  readonly keep: KeepSettings;
  /** The web debug toolbar in profiled HTML pages (PROFILER_TOOLBAR, default on). */
  readonly toolbar: boolean;
}

export interface JwtConfig {
  /** HS256 shared secret; or null when key files are used. */
  readonly secret: string | null;
  readonly publicKeyFile: string | null;
  readonly privateKeyFile: string | null;
  readonly issuer: string;
  readonly audience: string;
  readonly ttlSeconds: number;
}

/** At most `max` in `windowSeconds`. */
export interface RateConfig {
  readonly max: number;
  readonly windowSeconds: number;
}

export interface LoginThrottleConfig {
  /** Login attempts per client address (LOGIN_THROTTLE, default 20/1m); null: none. */
  readonly perClient: RateConfig | null;
  /** Failed logins per account (LOGIN_ACCOUNT_THROTTLE, default 10/15m); null: none. */
  readonly perAccount: RateConfig | null;
  /** Password checks (scrypt, ~134 MB each) run at once (PASSWORD_HASH_CONCURRENCY, default 2). */
  readonly passwordConcurrency: number;
  /** Password checks that may wait for one (PASSWORD_HASH_QUEUE, default 64); past that, 503. */
  readonly passwordQueue: number;
}

/** Everything Trellis reads from the environment, typed and validated once at startup. */
export interface TrellisConfig {
  readonly env: string;
  readonly debug: boolean;
  readonly host: string;
  readonly port: number;
  readonly logLevel: string;
  readonly trustedHosts: readonly RegExp[];
  readonly trustedProxies: readonly string[];
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  /** Debug only: serve HTTPS with a self-signed certificate created once under `var/`. */
  readonly selfSignedHttps: boolean;
  readonly bodyLimit: number;
  /**
   * Bytes that request bodies of 64 KB or more may hold together while they are read
   * (BODY_MEMORY); past it a body waits, unread, for others to be done (kernel/body-budget.ts).
   */
  readonly bodyMemory: number;
  /** How deep a JSON request body may nest (JSON_MAX_DEPTH); deeper is a 400. */
  readonly jsonMaxDepth: number;
  /** How many members one object of a JSON request body may have (JSON_MAX_MEMBERS); more is a 400. */
  readonly jsonMaxMembers: number;
  /** Longest a client may stay silent while sending a request, in ms; then its connection closes. */
  readonly requestTimeoutMs: number;
  readonly databaseUrl: string;
  /** How long startup waits for an unreachable database before exiting (DATABASE_WAIT, ms). */
  readonly databaseWaitMs: number;
  /** PostgreSQL: longest a query may go unanswered before it fails (503) and its connection is dropped (DATABASE_QUERY_TIMEOUT). */
  readonly databaseQueryTimeoutMs: number;
  readonly profiler: ProfilerConfig & { readonly enabled: boolean };
  readonly jwt: JwtConfig;
  readonly corsAllowOrigin: RegExp;
  readonly cors: CorsConfig;
  readonly loginThrottle: LoginThrottleConfig;
  /**
   * Redis for state shared by processes (login throttle counters): REDIS_URL, else the
   * profiler's store when PROFILER_DSN is a Redis URL; null: each process counts alone.
   */
  readonly redisUrl: string | null;
  /**
   * What the keys of that state begin with: the `?prefix=` of REDIS_URL, else of the profiler's
   * Redis when REDIS_URL defaults to it, else `trellis:`. Apps sharing one Redis keep apart so:
   * one app's failed logins do not spend another's budget.
   */
  readonly redisKeyPrefix: string;
}

const POSTGRES_EXAMPLE = 'postgres://user:password@host:5432/database';
const REDIS_EXAMPLE = 'redis://:password@host:6379/0';
const DEFAULT_REDIS_KEY_PREFIX = 'trellis:';
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/**
 * Exactly these, in this case: anything else (`Production`, `prod`) once ran the debug
 * configuration, profiler and exception pages included, on a server meant for production.
 */
const NODE_ENVS = ['production', 'development', 'test'];

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): TrellisConfig {
  const nodeEnv = str(env, 'NODE_ENV', 'development');
  if (!NODE_ENVS.includes(nodeEnv)) throw new ConfigError('NODE_ENV', `expected one of ${NODE_ENVS.join(', ')}, got "${nodeEnv}"`);
  const production = nodeEnv === 'production';
  const debug = bool(env, 'APP_DEBUG', !production);
  // Production never shows traces or the profiler, whatever else is set.
  if (production && debug) throw new ConfigError('APP_DEBUG', 'the debug configuration cannot run with NODE_ENV=production');
  const logLevel = str(env, 'LOG_LEVEL', debug ? 'debug' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

  const certFile = env.TLS_CERT || null;
  const keyFile = env.TLS_KEY || null;
  if ((certFile === null) !== (keyFile === null)) {
    throw new ConfigError(certFile ? 'TLS_KEY' : 'TLS_CERT', 'TLS_CERT and TLS_KEY must be set together');
  }
  const selfSignedHttps = bool(env, 'HTTPS', false);
  if (selfSignedHttps && !debug) {
    throw new ConfigError('HTTPS', 'a self-signed certificate is for the debug configuration only; set TLS_CERT and TLS_KEY in production');
  }

  const databaseUrl = str(env, 'DATABASE_URL', 'sqlite:var/data.db');
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', `expected sqlite:<file>, sqlite::memory: or postgres://…, got "${databaseUrl}"`);
  }
  if (!databaseUrl.startsWith('sqlite:')) parsedUrl('DATABASE_URL', databaseUrl, POSTGRES_EXAMPLE);
  const profilerDsn = str(env, 'PROFILER_DSN', 'sqlite:var/profiler.db');
  if (!/^(sqlite:.+|memory:|rediss?:\/\/.*)$/.test(profilerDsn)) {
    throw new ConfigError('PROFILER_DSN', `expected sqlite:<file>, memory: or redis://…, got "${profilerDsn}"`);
  }
  // Parsed again where the store opens, and for REDIS_URL's default: a TypeError with a stack there.
  if (/^rediss?:/.test(profilerDsn)) parsedUrl('PROFILER_DSN', profilerDsn, REDIS_EXAMPLE);
  const jwtSecret = env.JWT_SECRET || null;
  if (production && jwtSecret !== null && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 characters in production');
  }

  return {
    env: nodeEnv,
    debug,
    host: str(env, 'HOST', '127.0.0.1'),
    port: int(env, 'PORT', 8000, 0, 65535),
    logLevel,
    trustedHosts: list(env, 'TRUSTED_HOSTS').map((p) => regex('TRUSTED_HOSTS', p, true)),
    trustedProxies: addresses(env, 'TRUSTED_PROXIES'),
    tls: certFile && keyFile ? { certFile, keyFile } : null,
    selfSignedHttps,
    bodyLimit: bytes(env, 'BODY_LIMIT', 1024 * 1024),
    bodyMemory: bytes(env, 'BODY_MEMORY', 16 * 1024 * 1024),
    jsonMaxDepth: int(env, 'JSON_MAX_DEPTH', 64, 1, 10_000),
    jsonMaxMembers: int(env, 'JSON_MAX_MEMBERS', 1000, 1, 10_000_000),
    // Not 0: Node reads it as no deadline, Fastify's connection timeout (built on it) as 0 s
    // plus two checks, and every request slower than that got an empty reply.
    requestTimeoutMs: duration(env, 'REQUEST_TIMEOUT', 30, 1, '0 would end every request slower than 0.2 s with an empty reply') * 1000,
    databaseUrl,
    databaseWaitMs: duration(env, 'DATABASE_WAIT', 30) * 1000,
    databaseQueryTimeoutMs: duration(env, 'DATABASE_QUERY_TIMEOUT', 10) * 1000,
    profiler: {
      enabled: debug && bool(env, 'PROFILER', true),
      dsn: profilerDsn,
      maxProfiles: int(env, 'PROFILER_MAX_PROFILES', 10_000, 1, 100_000_000),
      ttlSeconds: duration(env, 'PROFILER_TTL', 2 * 86400),
      allow: addresses(env, 'PROFILER_ALLOW'),
      maxBodyBytes: bytes(env, 'PROFILER_MAX_BODY', 64 * 1024),
      redactKeys: env.PROFILER_REDACT_KEYS ? list(env, 'PROFILER_REDACT_KEYS') : DEFAULT_SECRET_KEYS,
      maxBacklogBytes: bytes(env, 'PROFILER_MAX_BACKLOG', 32 * 1024 * 1024),
      keep: { sample: share(env, 'PROFILER_SAMPLE', 1), only: profilerOnly(env) },
      toolbar: bool(env, 'PROFILER_TOOLBAR', true),
    },
    jwt: {
      secret: jwtSecret,
      publicKeyFile: env.JWT_PUBLIC_KEY || null,
      privateKeyFile: env.JWT_PRIVATE_KEY || null,
      issuer: str(env, 'JWT_ISSUER', 'trellis'),
      audience: str(env, 'JWT_AUDIENCE', 'trellis'),
      ttlSeconds: duration(env, 'JWT_TTL', 3600),
    },
    corsAllowOrigin: regex('CORS_ALLOW_ORIGIN', str(env, 'CORS_ALLOW_ORIGIN', '^https?://(localhost|127\\.0\\.0\\.1)(:[0-9]+)?$'), false),
    cors: {
      allowHeaders: headerNames(env, 'CORS_ALLOW_HEADERS', DEFAULT_CORS_ALLOW_HEADERS),
      exposeHeaders: headerNames(env, 'CORS_EXPOSE_HEADERS', DEFAULT_CORS_EXPOSE_HEADERS),
      allowCredentials: bool(env, 'CORS_ALLOW_CREDENTIALS', false),
      maxAgeSeconds: duration(env, 'CORS_MAX_AGE', 3600),
    },
    loginThrottle: {
      perClient: rate(env, 'LOGIN_THROTTLE', '20/1m'),
      perAccount: rate(env, 'LOGIN_ACCOUNT_THROTTLE', '10/15m'),
      passwordConcurrency: int(env, 'PASSWORD_HASH_CONCURRENCY', 2, 1, 64),
      passwordQueue: int(env, 'PASSWORD_HASH_QUEUE', 64, 0, 100_000),
    },
    ...sharedRedis(env, profilerDsn),
  };
}

/** The Redis for state shared by processes, without its `?prefix=`, and that prefix. */
function sharedRedis(env: Env, profilerDsn: string): { redisUrl: string | null; redisKeyPrefix: string } {
  const url = str(env, 'REDIS_URL', '');
  if (url !== '') {
    if (!/^rediss?:\/\/./.test(url)) throw new ConfigError('REDIS_URL', `expected redis://… or rediss://…, got "${url}"`);
    parsedUrl('REDIS_URL', url, REDIS_EXAMPLE);
  }
  const source = url !== '' ? url : /^rediss?:\/\//.test(profilerDsn) ? profilerDsn : null;
  if (source === null) return { redisUrl: null, redisKeyPrefix: DEFAULT_REDIS_KEY_PREFIX };
  const shared = new URL(source);
  const prefix = shared.searchParams.get('prefix');
  if (prefix === null) return { redisUrl: source, redisKeyPrefix: DEFAULT_REDIS_KEY_PREFIX };
  shared.searchParams.delete('prefix');
  return { redisUrl: shared.href, redisKeyPrefix: prefix };
}

function share(env: Env, name: string, fallback: number): number {
  const v = (env[name] ?? '').trim();
  if (v === '') return fallback;
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(v)) throw new ConfigError(name, `expected a number from 0 to 1, got "${v}"`);
  return Number(v);
}

function profilerOnly(env: Env): KeepSettings['only'] {
  try {
    return parseOnly(env.PROFILER_ONLY ?? '');
  } catch (error) {
    throw new ConfigError('PROFILER_ONLY', (error as Error).message);
  }
}
