import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from './config.ts';

test('defaults: debug on 127.0.0.1:8000, SQLite data and profiles', () => {
  const c = loadConfig({});
  assert.equal(c.debug, true);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 8000);
  assert.equal(c.databaseUrl, 'sqlite:var/data.db');
  assert.equal(c.profiler.dsn, 'sqlite:var/profiler.db');
  assert.equal(c.profiler.enabled, true);
  assert.equal(c.profiler.maxProfiles, 10_000);
  assert.equal(c.profiler.ttlSeconds, 172_800);
  assert.equal(c.profiler.maxBodyBytes, 65_536);
  assert.equal(c.bodyMemory, 16 * 1024 * 1024);
  assert.equal(c.tls, null);
});

test('production turns debug and the profiler off; APP_DEBUG overrides outside production only by choice', () => {
  const prod = loadConfig({ NODE_ENV: 'production' });
  assert.equal(prod.debug, false);
  assert.equal(prod.profiler.enabled, false);
  assert.equal(loadConfig({ APP_DEBUG: '0' }).debug, false);
  assert.equal(loadConfig({ APP_DEBUG: '0' }).profiler.enabled, false);
});

test('NODE_ENV=test runs the debug configuration, as development does', () => {
  const c = loadConfig({ NODE_ENV: 'test' });
  assert.equal(c.env, 'test');
  assert.equal(c.debug, true);
});

test('Redis and PostgreSQL URLs that parse are taken; REDIS_URL defaults to the profiler\'s Redis, its prefix kept apart', () => {
  const c = loadConfig({ PROFILER_DSN: 'redis://:p%40ss@cache:6380/2?prefix=app:', DATABASE_URL: 'postgres://u:p%23w@db:5433/shop' });
  assert.equal(c.redisUrl, 'redis://:p%40ss@cache:6380/2');
  assert.equal(c.redisKeyPrefix, 'app:');
  assert.equal(c.databaseUrl, 'postgres://u:p%23w@db:5433/shop');
});

test('the shared Redis key prefix: REDIS_URL\'s own, else the profiler\'s, else trellis:', () => {
  const own = loadConfig({ REDIS_URL: 'redis://cache:6379/1?prefix=shop:', PROFILER_DSN: 'redis://cache:6379/2?prefix=other:' });
  assert.deepEqual([own.redisUrl, own.redisKeyPrefix], ['redis://cache:6379/1', 'shop:']);
  const plain = loadConfig({ REDIS_URL: 'redis://cache:6379/1', PROFILER_DSN: 'redis://cache:6379/2?prefix=other:' });
  assert.deepEqual([plain.redisUrl, plain.redisKeyPrefix], ['redis://cache:6379/1', 'trellis:']);
  const unprefixed = loadConfig({ PROFILER_DSN: 'redis://cache:6379/2' });
  assert.deepEqual([unprefixed.redisUrl, unprefixed.redisKeyPrefix], ['redis://cache:6379/2', 'trellis:']);
  const none = loadConfig({ PROFILER_DSN: 'sqlite:var/p.db' });
  assert.deepEqual([none.redisUrl, none.redisKeyPrefix], [null, 'trellis:']);
});

test('REQUEST_TIMEOUT: 1 s is the shortest deadline taken', () => {
  assert.equal(loadConfig({ REQUEST_TIMEOUT: '1' }).requestTimeoutMs, 1000);
  assert.equal(loadConfig({ REQUEST_TIMEOUT: '2m' }).requestTimeoutMs, 120_000);
});

test('lists, durations and sizes are parsed', () => {
  const c = loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1', PROFILER_TTL: '12h', PROFILER_MAX_BODY: '8k', BODY_MEMORY: '64m', TRUSTED_HOSTS: 'a\\.test,b\\.test' });
  assert.deepEqual(c.trustedProxies, ['10.0.0.0/8', '192.168.1.1']);
  assert.equal(c.profiler.ttlSeconds, 43_200);
  assert.equal(c.profiler.maxBodyBytes, 8192);
  assert.equal(c.bodyMemory, 64 * 1024 * 1024);
  assert.deepEqual(c.trustedHosts.map(String), ['/^(?:a\\.test)$/i', '/^(?:b\\.test)$/i']);
});

const UNPARSED = 'got one that does not parse (a space, a port over 65535, or a character of the password that must be percent-encoded)';

test('a bad value stops startup with one line naming the variable and the problem', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT: expected a whole number from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT: expected a whole number from 0 to 65535, got "70000"'],
    [{ APP_DEBUG: 'maybe' }, 'APP_DEBUG: expected 1 or 0 (true/false), got "maybe"'],
    [{ TRUSTED_HOSTS: '(' }, 'TRUSTED_HOSTS: invalid regular expression "(" (Invalid regular expression: /^(?:()$/i: Unterminated group)'],
    [{ TRUSTED_PROXIES: '10.0.0.300' }, 'TRUSTED_PROXIES: "10.0.0.300" is not an IP address or CIDR range'],
    [{ TRUSTED_PROXIES: '10.0.0.0/33' }, 'TRUSTED_PROXIES: "10.0.0.0/33" is not an IP address or CIDR range'],
    [{ TLS_CERT: 'cert.pem' }, 'TLS_KEY: TLS_CERT and TLS_KEY must be set together'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: expected sqlite:<file>, sqlite::memory: or postgres://…, got "mysql://x"'],
    [{ PROFILER_DSN: 'files:/tmp' }, 'PROFILER_DSN: expected sqlite:<file>, memory: or redis://…, got "files:/tmp"'],
    [{ PROFILER_DSN: 'redis://a b' }, `PROFILER_DSN: expected a URL such as redis://:password@host:6379/0, ${UNPARSED}`],
    [{ PROFILER_DSN: 'redis://:99999' }, `PROFILER_DSN: expected a URL such as redis://:password@host:6379/0, ${UNPARSED}`],
    [{ REDIS_URL: 'rediss://h:70000' }, `REDIS_URL: expected a URL such as redis://:password@host:6379/0, ${UNPARSED}`],
    [{ DATABASE_URL: 'postgres://:99999/x' }, `DATABASE_URL: expected a URL such as postgres://user:password@host:5432/database, ${UNPARSED}`],
    [{ DATABASE_URL: 'postgres://u:p@ss@a b/x' }, `DATABASE_URL: expected a URL such as postgres://user:password@host:5432/database, ${UNPARSED}`],
    [{ REQUEST_TIMEOUT: '0' }, 'REQUEST_TIMEOUT: expected a duration of at least 1 s (0 would end every request slower than 0.2 s with an empty reply), got "0"'],
    [{ REQUEST_TIMEOUT: '0m' }, 'REQUEST_TIMEOUT: expected a duration of at least 1 s (0 would end every request slower than 0.2 s with an empty reply), got "0m"'],
    [{ REQUEST_TIMEOUT: '-5' }, 'REQUEST_TIMEOUT: expected a duration such as 3600, 30m, 12h or 2d, got "-5"'],
    [{ PROFILER_TTL: 'forever' }, 'PROFILER_TTL: expected a duration such as 3600, 30m, 12h or 2d, got "forever"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ NODE_ENV: 'Production' }, 'NODE_ENV: expected one of production, development, test, got "Production"'],
    [{ NODE_ENV: 'prod' }, 'NODE_ENV: expected one of production, development, test, got "prod"'],
    [{ NODE_ENV: 'production ' }, 'NODE_ENV: expected one of production, development, test, got "production "'],
    [{ NODE_ENV: 'production', APP_DEBUG: '1' }, 'APP_DEBUG: the debug configuration cannot run with NODE_ENV=production'],
    [{ NODE_ENV: 'production', JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters in production'],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (e: Error) => e.name === 'ConfigError' && e.message === message && !e.message.includes('\n'), message);
  }
});
