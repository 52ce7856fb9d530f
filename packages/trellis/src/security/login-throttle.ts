import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateConfig } from '../app/config.ts';
import { HttpError } from '../kernel/http-error.ts';
import { CheckAdmission } from './check-admission.ts';

export interface LoginThrottleOptions {
  /** Attempts per client address, counted before the password is checked. */
  readonly perClient: RateConfig | null;
  /** Failed attempts per account (the e-mail as given, case-folded), counted after the check. */
  readonly perAccount: RateConfig | null;
  /** Shared counters for many processes; null: this process counts alone. */
  readonly redisUrl: string | null;
  /** What the shared counters' keys begin with, before `login-throttle:` (default `trellis:`). */
  readonly redisKeyPrefix?: string;
}

/** What `createRateLimit` answers (the part we read). */
interface Verdict {
  readonly isExceeded: boolean;
  /** Attempts left before the limit (max less the count). */
  readonly remaining: number;
  readonly ttl: number;
}
type Limiter = (request: FastifyRequest, options?: { increment?: boolean }) => Promise<Verdict>;
/** How long a password check waits for a place in its account's budget (check-admission.ts). */
const CHECK_WAIT_MS = 10_000;

/**
 * Where the shared counters live: `<prefix>login-throttle:client:<address>`, `…:account:<digest>`,
 * the prefix `trellis:` unless the Redis URL says another (config.ts, redisKeyPrefix).
 */
export const REDIS_KEY_PREFIX = 'trellis:login-throttle:';

/** The key a limiter counts under, put on the object handed to it (see `keyed`). */
const KEY = Symbol('trellis.throttleKey');
type Keyed = FastifyRequest & { [KEY]: string };

/**
 * Login attempts limited per client address and per account (Symfony's login throttling), with
 * @fastify/rate-limit's counters: in this process always, and in Redis too when one is configured,
 * so many processes share one budget. If Redis goes away the shared count is skipped (logged once
 * a minute) and the process's own count still holds: a storm is never unlimited, and logins never
 * depend on Redis being up.
 *
 * A refused attempt is a 429 with Retry-After (RFC 6585 §4) before any password is checked.
 */
export class LoginThrottle {
  readonly #perClient: Limiter[];
  readonly #perAccount: Limiter[];
  /** The account's password checks admitted at once (check-admission.ts). */
  readonly #admission = new CheckAdmission(CHECK_WAIT_MS);

  private constructor(perClient: Limiter[], perAccount: Limiter[]) {
    this.#perClient = perClient;
    this.#perAccount = perAccount;
  }

  static async register(app: FastifyInstance, options: LoginThrottleOptions): Promise<LoginThrottle> {
    if (options.perClient === null && options.perAccount === null) return new LoginThrottle([], []);
    const local = await limiterFactory(app, {});
    let shared: LimiterFactory | null = null;
    if (options.redisUrl !== null) {
      const { Redis } = await import('ioredis');
      // Fail fast while Redis is away (no offline queue, short timeout): the local count decides.
      const redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
      let lastWarning = 0;
      redis.on('error', (error: Error) => {
        if (Date.now() - lastWarning < 60_000) return;
        lastWarning = Date.now();
        app.log.warn({ channel: 'security', err: { message: error.message } }, 'Login throttle: Redis is unreachable; counting in this process only.');
      });
      app.addHook('onClose', async () => void redis.disconnect());
      // Without an offline queue, commands before the connection is up would be skipped: wait for
      // it a moment at startup, but never fail to start for want of Redis.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 2000);
        function done() {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve();
        }
        redis.once('ready', done);
      });
      const keyPrefix = options.redisKeyPrefix === undefined ? REDIS_KEY_PREFIX : `${options.redisKeyPrefix}login-throttle:`;
      const store = flatRedisStore(redis, keyPrefix);
      // Should a release of the plugin move its store, the stock one counts as well (its keys read worse).
      shared = await limiterFactory(app, { ...(store ? { store } : { redis, nameSpace: keyPrefix }), skipOnError: true });
    }
    const limiters = (rate: RateConfig | null): Limiter[] => {
      if (rate === null) return [];
      const settings = { max: rate.max, timeWindow: rate.windowSeconds * 1000, keyGenerator: (r: FastifyRequest) => (r as Keyed)[KEY] };
      return [local(settings), ...(shared ? [shared(settings)] : [])];
    };
    return new LoginThrottle(limiters(options.perClient), limiters(options.perAccount));
  }

  /**
   * Counts an attempt from the client and refuses it past the client's or the account's budget,
   * the account's checks already running included. Returns what to call once the password check is
   * done (and a failure counted with `failed`).
   */
  async attempt(request: FastifyRequest, account: string): Promise<() => void> {
    await count(this.#perClient, request, `client:${request.clientIp}`);
    return this.#reserve(request, accountKey(account));
  }

  /**
   * Admits a check of the account's password within its budget, the checks running counted
   * (check-admission.ts); refused (429) when failures alone spent it, or when no place came
   * within CHECK_WAIT_MS.
   */
  async #reserve(request: FastifyRequest, key: string): Promise<() => void> {
    if (this.#perAccount.length === 0) return () => undefined;
    const admitted = await this.#admission.admit(key, () => remainingOf(this.#perAccount, request, key));
    if (admitted === null) throw tooMany(1000);
    return admitted;
  }

  /** Counts a failed attempt against the account. */
  async failed(request: FastifyRequest, account: string): Promise<void> {
    for (const limiter of this.#perAccount) await limiter(keyed(request, accountKey(account)));
  }

  /**
   * For credentials sent with every request (HTTP Basic): refuses, counting nothing, a client or
   * an account already past its budget. Counting every request, as `attempt` does for POST /auth,
   * would throttle a client that only sends its right password often.
   */
  async refuseIfOver(request: FastifyRequest, account: string): Promise<() => void> {
    await remainingOf(this.#perClient, request, `client:${request.clientIp}`);
    return this.#reserve(request, accountKey(account));
  }

  /** For credentials sent with every request: a failure counts against the client and the account. */
  async failedEverywhere(request: FastifyRequest, account: string): Promise<void> {
    for (const limiter of this.#perClient) await limiter(keyed(request, `client:${request.clientIp}`));
    await this.failed(request, account);
  }
}

type LimiterFactory = (settings: { max: number; timeWindow: number; keyGenerator: (r: FastifyRequest) => string }) => Limiter;

/**
 * A `createRateLimit` of its own store: the plugin decorates each instance once, so each store is
 * registered in a child context of its own.
 */
async function limiterFactory(app: FastifyInstance, store: Record<string, unknown>): Promise<LimiterFactory> {
  let factory: LimiterFactory | null = null;
  // Loaded only when logins are throttled (startup time).
  const { default: fastifyRateLimit } = await import('@fastify/rate-limit');
  await app.register(async (child) => {
    await child.register(fastifyRateLimit, { global: false, ...store });
    factory = (settings) => child.createRateLimit(settings) as Limiter;
  });
  return factory!;
}

/**
 * @fastify/rate-limit's Redis store, counting every limiter under `prefix` + its key. The stock
 * store gives each limiter a child keyed by its route's method and URL, which a limiter made with
 * `createRateLimit` does not have: its keys read `…undefinedundefined-client:…`. Our keys already
 * say what they count (`client:`, `account:`).
 */
function flatRedisStore(redis: unknown, prefix: string): (new (params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) => unknown) | null {
  // The store is not in the package's documented API, but it is the one its `redis` option builds
  // (a test checks the keys it writes, so a change of its constructor shows).
  let RedisStore: new (continueExceeding: boolean | undefined, exponentialBackoff: boolean | undefined, redis: unknown, key: string) => object;
  try {
    RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js');
  } catch {
    return null;
  }
  return class FlatRedisStore extends RedisStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(params.continueExceeding, params.exponentialBackoff, redis, prefix);
    }

    child(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }): object {
      return new FlatRedisStore(params);
    }
  };
}

/** The request, with the key its limiters count under (the plugin reads routeOptions from it). */
function keyed(request: FastifyRequest, key: string): FastifyRequest {
  return Object.assign(Object.create(request) as FastifyRequest, { [KEY]: key });
}

/** Accounts are counted under a digest: an e-mail address is not kept in Redis keys. */
function accountKey(account: string): string {
  return `account:${createHash('sha256').update(account.trim().toLowerCase()).digest('base64url').slice(0, 24)}`;
}

/** Counts an attempt under `key`; throws the 429 past the budget. */
async function count(limiters: readonly Limiter[], request: FastifyRequest, key: string): Promise<void> {
  for (const limiter of limiters) {
    const verdict = await limiter(keyed(request, key), { increment: true });
    if (verdict.isExceeded) throw tooMany(verdict.ttl);
  }
}

/**
 * Attempts `key` may still make (the least of its limiters'), counting nothing; throws the 429
 * when none is left: read, the limit is reached at max (the next is one too many).
 */
async function remainingOf(limiters: readonly Limiter[], request: FastifyRequest, key: string): Promise<number> {
  let least = Infinity;
  for (const limiter of limiters) {
    const verdict = await limiter(keyed(request, key), { increment: false });
    if (verdict.remaining === 0 && verdict.ttl > 0) throw tooMany(verdict.ttl);
    least = Math.min(least, verdict.remaining);
  }
  return least;
}

function tooMany(ttlMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return HttpError.of('too_many_login_attempts', { minutes: Math.max(1, Math.ceil(seconds / 60)) }, { headers: { 'retry-after': String(seconds) } });
}
