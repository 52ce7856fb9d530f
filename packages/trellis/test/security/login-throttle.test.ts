/**
 * POST /auth is throttled per client address and per account, 429 with Retry-After before any
 * password is checked; counters are shared through Redis by many processes and survive Redis
 * going away; password checks are bounded (issue 13, defect 7).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomInt } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { redisForTests } from '../../src/testing/services.ts';
import { tcpProxy } from '../../src/testing/tcp-proxy.ts';
import { REDIS_KEY_PREFIX } from '../../src/security/login-throttle.ts';
import type { UserProvider } from '../../src/security/user-provider.ts';
import { PASSWORDS, securedApp, users } from './security-fixtures.ts';

const PROXIED = { TRUSTED_PROXIES: '127.0.0.1' };
/** A client address of its own for each test, so counters shared in Redis never collide between runs. */
const someClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function login(app: FastifyInstance, email: string, password: string, client?: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/auth',
    headers: { 'content-type': 'application/json', ...(client && { 'x-forwarded-for': client }) },
    payload: JSON.stringify({ email, password }),
  });
}

function assertThrottled(r: LightMyRequestResponse, maxSeconds: number): void {
  assert.equal(r.statusCode, 429, r.body);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  const retryAfter = Number(r.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= maxSeconds, `Retry-After ${r.headers['retry-after']}`);
  const minutes = Math.ceil(retryAfter / 60);
  assert.equal(r.json().detail, `Too many login attempts, please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`);
  assert.equal(r.json().code, 'too_many_login_attempts');
}

/** The fixture users, counting how often a password check was started (each is one scrypt). */
function countingUsers(): UserProvider & { lookups: number } {
  const counting = {
    lookups: 0,
    findByIdentifier(identifier: string) {
      counting.lookups++;
      return users.findByIdentifier(identifier);
    },
    findById: (id: string) => users.findById(id),
    findByApiKeyHash: (hash: string) => users.findByApiKeyHash(hash),
  };
  return counting as unknown as UserProvider & { lookups: number };
}

describe('login throttling in one process', () => {
  test('per client: past the budget a 429 with Retry-After, no password checked; other clients unaffected', async () => {
    const provider = countingUsers();
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: '3/1m', LOGIN_ACCOUNT_THROTTLE: 'off' }, { userProvider: provider });
    try {
      const client = someClient();
      for (let i = 0; i < 3; i++) assert.equal((await login(app, `user${i}@example.test`, 'wrong', client)).statusCode, 401);
      const lookups = provider.lookups;
      assertThrottled(await login(app, 'alice@example.test', PASSWORDS.alice, client), 60);
      assertThrottled(await login(app, 'alice@example.test', PASSWORDS.alice, client), 60);
      assert.equal(provider.lookups, lookups, 'a refused attempt checks no password');
      assert.equal((await login(app, 'alice@example.test', PASSWORDS.alice, someClient())).statusCode, 200);
      // The address is the one the guard resolved: a forged X-Forwarded-For from an untrusted peer changes nothing.
    } finally {
      await app.close();
    }
  });

  test('per account: failures count whatever the client and the spelling of the e-mail; other accounts unaffected', async () => {
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: 'off', LOGIN_ACCOUNT_THROTTLE: '2/15m' });
    try {
      assert.equal((await login(app, 'alice@example.test', 'wrong-1', someClient())).statusCode, 401);
      assert.equal((await login(app, ' ALICE@Example.test', 'wrong-2', someClient())).statusCode, 401);
      const refused = await login(app, 'alice@example.test', PASSWORDS.alice, someClient());
      assertThrottled(refused, 900);
      assert.ok(Number(refused.headers['retry-after']) > 60, 'the account window is 15 minutes');
      assert.equal((await login(app, 'bob@example.test', PASSWORDS.bob, someClient())).statusCode, 200);
      // Successes do not count.
      for (let i = 0; i < 3; i++) assert.equal((await login(app, 'bob@example.test', PASSWORDS.bob)).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  test('parallel guesses at one account: no more password checks than its budget, by /auth or Basic', async () => {
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: 'off', LOGIN_ACCOUNT_THROTTLE: '5/15m' });
    try {
      // Sent together, from as many addresses: every one would pass a budget read before any failure is counted.
      const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => login(app, 'alice@example.test', `wrong-${i}`, someClient())))).map((r) => r.statusCode);
      assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(' '));
      assert.equal(statuses.filter((s) => s === 429).length, 25, statuses.join(' '));
      assertThrottled(await login(app, 'alice@example.test', PASSWORDS.alice, someClient()), 900);
      const basicStatuses = (await Promise.all(Array.from({ length: 20 }, (_, i) => basic(app, 'bob@example.test', `wrong-${i}`, someClient())))).map((r) => r.statusCode);
      assert.equal(basicStatuses.filter((s) => s === 401).length, 5, basicStatuses.join(' '));
      assert.equal(basicStatuses.filter((s) => s === 429).length, 15, basicStatuses.join(' '));
      // Past five at once the right password waits for a running check to end, and a success gives
      // its place back: twelve workers sending it together are all let in, none counted.
      const right = await Promise.all(Array.from({ length: 12 }, () => login(app, 'admin@example.test', PASSWORDS.admin, someClient())));
      assert.deepEqual(right.map((r) => r.statusCode), Array(12).fill(200));
      const basicRight = await Promise.all(Array.from({ length: 12 }, () => basic(app, 'admin@example.test', PASSWORDS.admin, someClient())));
      assert.deepEqual(basicRight.map((r) => r.statusCode), Array(12).fill(200));
    } finally {
      await app.close();
    }
  });

    test('a login storm: password checks are bounded, the overflow is a 503 with Retry-After, never a 500', async () => {
    const app = await securedApp({ LOGIN_THROTTLE: 'off', LOGIN_ACCOUNT_THROTTLE: 'off', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '2' });
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, () => login(app, 'alice@example.test', 'wrong')));
      const statuses = answers.map((r) => r.statusCode);
      assert.ok(statuses.every((s) => s === 401 || s === 503), statuses.join());
      assert.ok(statuses.filter((s) => s === 401).length >= 3, statuses.join());
      const busy = answers.find((r) => r.statusCode === 503);
      assert.ok(busy, `some were turned away: ${statuses.join()}`);
      assert.equal(busy.headers['retry-after'], '1');
      assert.equal(busy.json().detail, 'Too many password checks are in progress, please try again.');
      assert.equal(busy.json().code, 'password_check_busy');
      // Once the storm is over, logins work again.
      assert.equal((await login(app, 'alice@example.test', PASSWORDS.alice)).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  test('the throttle settings are validated', async () => {
    await assert.rejects(securedApp({ LOGIN_THROTTLE: '20 per minute' }), /LOGIN_THROTTLE: expected a rate such as 20\/1m \(at most 20 per minute\), or off, got "20 per minute"/);
    await assert.rejects(securedApp({ LOGIN_ACCOUNT_THROTTLE: '0/1m' }), /LOGIN_ACCOUNT_THROTTLE: expected a rate/);
    await assert.rejects(securedApp({ REDIS_URL: 'localhost:6379' }), /REDIS_URL: expected redis:\/\/… or rediss:\/\/…, got "localhost:6379"/);
  });
});

/** GET /me with HTTP Basic credentials (RFC 7617), from `client` when given. */
function basic(app: FastifyInstance, email: string, password: string, client?: string): Promise<LightMyRequestResponse> {
  return app.inject({
    url: '/me',
    headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`, ...(client && { 'x-forwarded-for': client }) },
  });
}

describe('HTTP Basic is throttled as POST /auth is (it is on in debug)', () => {
  test('per client: Basic failures spend the address\'s budget, shared with /auth; then 429 before any password check', async () => {
    const provider = countingUsers();
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: '3/1m', LOGIN_ACCOUNT_THROTTLE: 'off' }, { userProvider: provider });
    try {
      const client = someClient();
      for (let i = 0; i < 3; i++) {
        const r = await basic(app, `user${i}@example.test`, 'wrong', client);
        assert.equal(r.statusCode, 401, r.body);
        assert.equal(r.json().code, 'invalid_credentials');
      }
      const lookups = provider.lookups;
      assertThrottled(await basic(app, 'alice@example.test', PASSWORDS.alice, client), 60);
      assertThrottled(await login(app, 'alice@example.test', PASSWORDS.alice, client), 60);
      assert.equal(provider.lookups, lookups, 'a refused attempt checks no password');
      const elsewhere = await basic(app, 'alice@example.test', PASSWORDS.alice, someClient());
      assert.equal(elsewhere.statusCode, 200, elsewhere.body);
      assert.equal(elsewhere.json().user.identifier, 'alice@example.test');
    } finally {
      await app.close();
    }
  });

  test('per account: Basic and /auth failures add up; a locked account is refused by both, the right password too', async () => {
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: 'off', LOGIN_ACCOUNT_THROTTLE: '3/15m' });
    try {
      assert.equal((await basic(app, 'alice@example.test', 'wrong-1', someClient())).statusCode, 401);
      assert.equal((await login(app, 'alice@example.test', 'wrong-2', someClient())).statusCode, 401);
      assert.equal((await basic(app, 'ALICE@example.test', 'wrong-3', someClient())).statusCode, 401);
      assertThrottled(await basic(app, 'alice@example.test', PASSWORDS.alice, someClient()), 900);
      assertThrottled(await login(app, 'alice@example.test', PASSWORDS.alice, someClient()), 900);
      assert.equal((await basic(app, 'bob@example.test', PASSWORDS.bob, someClient())).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  test('the right password, sent with every request, is never throttled', async () => {
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: '3/1m', LOGIN_ACCOUNT_THROTTLE: '2/15m' });
    try {
      const client = someClient();
      for (let i = 0; i < 8; i++) assert.equal((await basic(app, 'bob@example.test', PASSWORDS.bob, client)).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

describe('login throttling across processes (Redis)', async () => {
  const redis = await redisForTests();

  test('two processes share one budget per client', { skip: redis.skip }, async () => {
    const env = { ...PROXIED, LOGIN_THROTTLE: '4/1m', LOGIN_ACCOUNT_THROTTLE: 'off', REDIS_URL: redis.url! };
    const [a, b] = [await securedApp(env), await securedApp(env)];
    try {
      const client = someClient();
      assert.equal((await login(a, 'x@example.test', 'wrong', client)).statusCode, 401);
      assert.equal((await login(b, 'x@example.test', 'wrong', client)).statusCode, 401);
      assert.equal((await login(a, 'x@example.test', 'wrong', client)).statusCode, 401);
      assert.equal((await login(b, 'x@example.test', 'wrong', client)).statusCode, 401);
      assertThrottled(await login(a, 'alice@example.test', PASSWORDS.alice, client), 60);
      assertThrottled(await login(b, 'alice@example.test', PASSWORDS.alice, client), 60);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('the shared counters are kept under keys that say what they count', { skip: redis.skip }, async () => {
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: '4/1m', LOGIN_ACCOUNT_THROTTLE: '5/1m', REDIS_URL: redis.url! });
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url!);
    try {
      const address = someClient();
      const account = `keys-${randomInt(1e9)}@example.test`;
      assert.equal((await login(app, account, 'wrong', address)).statusCode, 401);
      const keys = (await client.keys(`${REDIS_KEY_PREFIX}*`)).sort();
      assert.ok(keys.includes(`${REDIS_KEY_PREFIX}client:${address}`), keys.join(', '));
      assert.equal(keys.filter((k) => k.includes('undefined')).length, 0, keys.join(', '));
      const digest = createHash('sha256').update(account).digest('base64url').slice(0, 24);
      assert.equal(await client.get(`${REDIS_KEY_PREFIX}account:${digest}`), '1');
    } finally {
      client.disconnect();
      await app.close();
    }
  });

  test('apps sharing one Redis under prefixes of their own keep their budgets apart', { skip: redis.skip }, async () => {
    const tag = `app${randomInt(1e9)}`;
    const withPrefix = (prefix: string) => `${redis.url!}${redis.url!.includes('?') ? '&' : '?'}prefix=${prefix}`;
    const env = { ...PROXIED, LOGIN_THROTTLE: '2/1m', LOGIN_ACCOUNT_THROTTLE: 'off' };
    const a = await securedApp({ ...env, REDIS_URL: withPrefix(`${tag}-a:`) });
    const b = await securedApp({ ...env, REDIS_URL: withPrefix(`${tag}-b:`) });
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url!);
    try {
      const address = someClient();
      assert.equal((await login(a, 'x@example.test', 'wrong', address)).statusCode, 401);
      assert.equal((await login(a, 'x@example.test', 'wrong', address)).statusCode, 401);
      assertThrottled(await login(a, 'x@example.test', 'wrong', address), 60);
      // The same address on the other app: its own budget.
      assert.equal((await login(b, 'x@example.test', 'wrong', address)).statusCode, 401);
      assert.ok(Number(await client.get(`${tag}-a:login-throttle:client:${address}`)) >= 2, 'the first app counted under its prefix');
      assert.equal(await client.get(`${tag}-b:login-throttle:client:${address}`), '1');
      assert.equal(await client.exists(`${REDIS_KEY_PREFIX}client:${address}`), 0);
      await client.del(`${tag}-a:login-throttle:client:${address}`, `${tag}-b:login-throttle:client:${address}`);
    } finally {
      client.disconnect();
      await a.close();
      await b.close();
    }
  });

  test('Redis going away mid-run: logins go on, still throttled in the process, and the shared count resumes', { skip: redis.skip }, async () => {
    const proxy = await tcpProxy(redis.url!, 6379);
    const app = await securedApp({ ...PROXIED, LOGIN_THROTTLE: '3/1m', LOGIN_ACCOUNT_THROTTLE: 'off', REDIS_URL: proxy.url });
    try {
      assert.equal((await login(app, 'alice@example.test', PASSWORDS.alice, someClient())).statusCode, 200);
      proxy.cut();
      const client = someClient();
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await login(app, 'alice@example.test', 'wrong', client)).statusCode);
      assert.deepEqual(during, [401, 401, 401, 429], 'the process still counts while Redis is away');
      assert.equal((await login(app, 'alice@example.test', PASSWORDS.alice, someClient())).statusCode, 200);
      await proxy.restore();
      let ok = 0;
      for (let i = 0; i < 40 && ok === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if ((await login(app, 'bob@example.test', PASSWORDS.bob, someClient())).statusCode === 200) ok++;
      }
      assert.equal(ok, 1, 'logins work after Redis is back');
    } finally {
      await app.close();
      await proxy.close();
    }
  });
});
