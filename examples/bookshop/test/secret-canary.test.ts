/**
 * Secrets sent to the bookshop never come back out: a distinct canary in every place a client (or
 * the operator) can put a secret (credential headers, cookies, the query, JSON, form and text
 * bodies, 40 levels deep, the environment) and then a search of everything the service writes or
 * shows: stdout and stderr, the profile store's raw bytes (the SQLite file and its WAL, every
 * Redis key), and every profiler page and JSON document. Zero hits, or the test names the canary
 * and where it was found.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisForTests } from 'trellis/testing';
import { defaultPanels } from 'trellis/profiler';
import { ENV, startBookshop } from './bookshop-process.ts';

const canaries = new Map<string, string>();
/** A fresh canary for one place: long, random, never produced by the service itself. */
function canary(where: string): string {
  const value = `cnry${randomBytes(16).toString('hex')}`;
  canaries.set(value, where);
  return value;
}

function nest(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { level: value } : [value];
  return value;
}

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** The requests, each with its own canaries; built once per run so each run's canaries are its own. */
function requests(): Sent[] {
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  return [
    { method: 'GET', path: `/books?access_token=${canary('query access_token')}&page=1` },
    { method: 'GET', path: `/books?%61pi_key=${canary('query, encoded key')}&password=${canary('query password[0]')}&password=${canary('query password[1]')}` },
    { method: 'GET', path: `/users/1?token=${canary('query on an error page')}`, headers: { accept: 'text/html' } },
    { method: 'GET', path: '/users/1', headers: { authorization: `Bearer ${canary('Authorization bearer')}` } },
    { method: 'GET', path: '/users/1', headers: { authorization: `Basic ${Buffer.from(`alice@bookshop.test:${canary('Authorization basic')}`).toString('base64')}` } },
    { method: 'GET', path: '/books', headers: { 'x-api-key': canary('X-Api-Key'), 'x-auth-token': canary('X-Auth-Token'), 'proxy-authorization': `Basic ${canary('Proxy-Authorization')}` } },
    { method: 'GET', path: '/books', headers: { cookie: `session=${canary('cookie session')}; theme=dark; remember_token=${canary('cookie remember_token')}` } },
    { method: 'POST', path: '/auth', headers: json, body: JSON.stringify({ email: 'alice@bookshop.test', password: canary('JSON body password') }) },
    { method: 'POST', path: '/auth', headers: json, body: `{"email":"alice@bookshop.test","password":"${canary('malformed JSON body')}",` },
    { method: 'POST', path: '/auth', headers: json, body: JSON.stringify({ email: 'alice@bookshop.test', password: 'x', extra: nest(40, { password: canary('JSON 40 deep') }) }) },
    { method: 'POST', path: '/auth', headers: json, body: JSON.stringify(nest(41, { api_key: canary('JSON array 41 deep') })) },
    { method: 'POST', path: '/auth', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=alice%40bookshop.test&password=${canary('form body password')}` },
    { method: 'POST', path: '/auth', headers: { 'content-type': 'text/plain' }, body: `email=alice@bookshop.test&password=${canary('text body password')}` },
    { method: 'POST', path: '/books', headers: { ...json, 'content-type': 'application/ld+json' }, body: JSON.stringify({ title: 'x', secret: canary('resource body field') }) },
  ];
}

async function send(base: string, r: Sent): Promise<number> {
  const res = await fetch(base + r.path, { method: r.method, headers: { accept: 'application/ld+json', ...r.headers }, ...(r.body !== undefined && { body: r.body }) });
  await res.arrayBuffer();
  return res.status;
}

/** A real login: the issued token is a secret too, and so is the token used afterwards. */
async function login(base: string): Promise<void> {
  const res = await fetch(`${base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'alice@bookshop.test', password: 'alice-password' }) });
  assert.equal(res.status, 200);
  const { token } = (await res.json()) as { token: string };
  canaries.set(token, 'issued JWT');
  canaries.set(token.split('.')[2]!, 'issued JWT signature');
  await send(base, { method: 'GET', path: '/users/1', headers: { authorization: `Bearer ${token}` } });
}

function hits(text: string, source: string): string[] {
  const found: string[] = [];
  for (const [value, where] of canaries) if (text.includes(value)) found.push(`${where} found in ${source}`);
  return found;
}

/** Every profiler page and JSON document: the search page, and for each profile its page, panels, JSON and exception view. */
async function profilerTexts(base: string, expected: number): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const get = async (path: string) => {
    const res = await fetch(base + path, { headers: { accept: 'text/html' } });
    texts.set(path, await res.text());
    return res;
  };
  let listed: { token: string }[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await fetch(`${base}/_profiler/search.json?limit=100`);
    listed = ((await res.json()) as { results: { token: string }[] }).results;
    if (listed.length >= expected) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(listed.length >= expected, `expected at least ${expected} profiles, found ${listed.length}`);
  for (const path of ['/_profiler', '/_profiler/search?limit=100', '/_profiler/search.json?limit=100', '/_profiler/latest', '/_profiler/search_bar']) await get(path);
  for (const { token } of listed) {
    await get(`/_profiler/${token}`);
    await get(`/_profiler/${token}.json`);
    await get(`/_profiler/${token}/exception`);
    // Every built-in panel, the Configuration panel's process environment included.
    for (const { name } of defaultPanels) await get(`/_profiler/${token}?panel=${name}`);
  }
  return texts;
}

async function exercise(env: Record<string, string>, profiler: boolean): Promise<{ leaks: string[]; output: string }> {
  canaries.clear();
  const jwtSecret = canary('JWT_SECRET env var');
  // Not a throttling test: with profiles in Redis the login counters live there too, shared by
  // every run against that Redis within the minute (several CI runs in a row met 429s).
  const server = startBookshop({ ...ENV, LOG_LEVEL: 'trace', JWT_SECRET: jwtSecret, TRELLIS_CANARY: canary('an env var'), LOGIN_THROTTLE: 'off', LOGIN_ACCOUNT_THROTTLE: 'off', ...env });
  const leaks: string[] = [];
  try {
    const base = await server.url;
    const sent = requests();
    const statuses = [];
    for (const r of sent) statuses.push(await send(base, r));
    // Every request was answered, none with a 5xx: the canaries went through real handling.
    assert.equal(statuses.filter((s) => s >= 500).length, 0, `statuses: ${statuses.join(', ')}`);
    await login(base);
    if (profiler) for (const [path, text] of await profilerTexts(base, sent.length + 2)) leaks.push(...hits(text, `profiler ${path}`));
  } finally {
    await server.stop();
  }
  leaks.push(...hits(server.output(), 'stdout/stderr'));
  return { leaks, output: server.output() };
}

/** A key's whole value as text, whatever its type (DUMP would hide it: RDB compresses long strings). */
async function valueOf(client: import('ioredis').Redis, key: string): Promise<string> {
  const type = await client.type(key);
  if (type === 'string') return (await client.getBuffer(key))?.toString('latin1') ?? '';
  if (type === 'hash') return JSON.stringify(await client.hgetall(key));
  if (type === 'zset') return (await client.zrange(key, 0, -1, 'WITHSCORES')).join('\n');
  if (type === 'list') return (await client.lrange(key, 0, -1)).join('\n');
  if (type === 'set') return (await client.smembers(key)).join('\n');
  return `(a ${type})`;
}

describe('secret canaries', () => {
  test('debug, profiles in a SQLite file: not in logs, not in the file, not on any profiler page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-canary-'));
    try {
      const { leaks, output } = await exercise({ PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` }, true);
      assert.match(output, /"url":"\/books\?access_token=\[redacted\]&page=1"/, 'the request line is logged, redacted');
      for (const file of readdirSync(dir)) leaks.push(...hits(readFileSync(join(dir, file)).toString('latin1'), `the SQLite file ${file}`));
      assert.ok(readdirSync(dir).includes('profiler.db'));
      assert.deepEqual(leaks, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('debug, profiles in Redis: not in any key', async (t) => {
    const redis = await redisForTests();
    if (redis.url === null) return t.skip(redis.skip);
    const prefix = `trellis-canary-${randomBytes(4).toString('hex')}:`;
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    try {
      const { leaks } = await exercise({ PROFILER_DSN: `${redis.url}?prefix=${prefix}` }, true);
      const keys = await client.keys(`${prefix}*`);
      assert.ok(keys.length > 0, 'profiles were stored in Redis');
      for (const key of keys) {
        leaks.push(...hits(`${key}\n${await valueOf(client, key)}`, `Redis key ${key}`));
      }
      assert.deepEqual(leaks, []);
    } finally {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    }
  });

  test('production: not in logs', async () => {
    const { leaks, output } = await exercise({ NODE_ENV: 'production', LOG_LEVEL: 'info' }, false);
    assert.match(output, /"url":"\/books\?access_token=\[redacted\]&page=1"/);
    assert.deepEqual(leaks, []);
  });
});
