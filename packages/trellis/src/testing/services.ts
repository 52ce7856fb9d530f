/**
 * Test helpers for suites that need PostgreSQL or Redis. Where the service is not reachable the
 * suite is skipped with a line saying so, unless TRELLIS_REQUIRE_SERVICES=1 (set by CI), in which
 * case the suite fails: a CI run must never pass by skipping silently.
 */
import net from 'node:net';

export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/** Whether something accepts TCP connections at the URL's host and port. */
export function reachable(url: string, defaultPort: number, timeoutMs = 1000): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Resolves to the service URL, or to a skip reason for `describe(name, { skip }, …)`.
 * Throws when the service is required (TRELLIS_REQUIRE_SERVICES=1) and missing.
 */
async function service(name: string, url: string, port: number): Promise<{ url: string; skip: false } | { url: null; skip: string }> {
  if (await reachable(url, port)) return { url, skip: false };
  const reason = `${name} is not reachable at ${url.replace(/\/\/[^@]*@/, '//')}: skipping this suite (CI sets TRELLIS_REQUIRE_SERVICES=1 to make this a failure)`;
  if (process.env.TRELLIS_REQUIRE_SERVICES === '1') {
    throw new Error(`${name} is required (TRELLIS_REQUIRE_SERVICES=1) but not reachable at ${url}`);
  }
  console.log(`# ${reason}`);
  return { url: null, skip: reason };
}

export const postgresForTests = () => service('PostgreSQL', TEST_POSTGRES_URL, 5432);
export const redisForTests = () => service('Redis', TEST_REDIS_URL, 6379);
