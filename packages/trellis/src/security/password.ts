import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { BoundedSemaphore } from './bounded-semaphore.ts';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/** scrypt cost parameters (OWASP: N=2^17, r=8, p=1); stored with each hash so they can change later. */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 };
const KEYLEN = 32;
const maxmem = (N: number, r: number) => 128 * N * r * 2;

/**
 * Every scrypt of the process goes through one semaphore: memory is the process's, and each
 * check takes 128·N·r bytes (~134 MB). Beyond the queue, a check fails fast (SemaphoreFullError).
 */
const work = new BoundedSemaphore(2, 64);

/** How many password checks may run at once (PASSWORD_HASH_CONCURRENCY) and wait (default 64). */
export function configurePasswordWork(options: { concurrency: number; maxQueue?: number }): void {
  work.concurrency = options.concurrency;
  if (options.maxQueue !== undefined) work.maxQueue = options.maxQueue;
}

const boundedScrypt = (password: string, salt: Buffer, params: { N: number; r: number; p: number }) =>
  work.run(() => scryptAsync(password, salt, KEYLEN, { ...params, maxmem: maxmem(params.N, params.r) }));

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string, params = PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const hash = await boundedScrypt(password.normalize('NFKC'), salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * Checks a password against a stored hash in constant time. A malformed hash verifies as false;
 * callers with no user to check against should still call this with `DUMMY_PASSWORD_HASH` so a
 * wrong email and a wrong password take the same time.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEYLEN) return false;
  const actual = await boundedScrypt(password.normalize('NFKC'), salt, { N, r, p });
  return timingSafeEqual(actual, expected);
}

/**
 * A valid hash (today's parameters) of a random password nobody kept, for equal-time failures on
 * unknown users: its check's answer is never used, only its cost. A constant, so startup does not
 * pay one scrypt (~0.6 s) to make it.
 */
export const DUMMY_PASSWORD_HASH = 'scrypt$131072$8$1$m7aoOPfQKqUH4EW3h0a00A$I67chMMWv9mrrkxPznwvpdji3Mr-DUix8-7Z49qgf8I';
