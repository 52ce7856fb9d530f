import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyRequest } from 'fastify';
import { cutBodyText } from './cut-body-text.ts';
import { ProfileContext } from './profile-context.ts';
import type { SubRequest } from '../kernel/sub-request.ts';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A request as the recorder sees one, with a parsed body of `chars` characters. */
function requestWith(chars: number): FastifyRequest {
  const body = { password: 'hunter2-in-body', note: 'n'.repeat(chars) };
  return {
    method: 'POST',
    url: '/upload?x=1',
    trellisOrigin: 'https://shop.test',
    trellisProtocol: 'https',
    clientIp: '192.0.2.1',
    raw: { httpVersion: '1.1', httpVersionMajor: 1 },
    headers: { host: 'shop.test', 'content-length': String(chars + 40) },
    query: { x: '1' },
    params: {},
    routeOptions: { url: '/upload' },
    trellisScope: { logs: [] },
    body,
  } as unknown as FastifyRequest;
}

/** A request's context and a sub-request's, released as the recorder releases them once the response is sent. */
function releasedFamily(request: FastifyRequest, subRequest: SubRequest | null): { ctx: ProfileContext; child: ProfileContext } {
  const ctx = new ProfileContext({ token: 'a1b2c3', parentToken: null, request, subRequest: null });
  const child = new ProfileContext({ token: 'd4e5f6', parentToken: 'a1b2c3', request, subRequest });
  ctx.children.push(child);
  const facts = ctx.release(64 * 1024, DEFAULT_SECRET_KEYS);
  child.release(64 * 1024, DEFAULT_SECRET_KEYS, facts);
  return { ctx, child };
}

/** Collects garbage in a later job: a WeakRef keeps its target for the rest of the job that made it. */
async function collectLater(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

test('release keeps what the profile needs, a large body cut, and lets go of the request and its body', async () => {
  let request: FastifyRequest | null = requestWith(900 * 1024);
  const body = new WeakRef(request.body as object);
  const { ctx, child } = releasedFamily(request, null);
  request = null;
  await collectLater();
  assert.ok(body.deref() === undefined, 'the body is no longer reachable from the contexts');
  assert.throws(() => ctx.request, { message: 'Profile a1b2c3: its request was released' });
  const snapshot = ctx.snapshot(null, []);
  assert.equal(snapshot.request.method, 'POST');
  assert.equal(snapshot.request.url, '/upload?x=1');
  assert.equal(snapshot.request.ip, '192.0.2.1');
  assert.deepEqual(snapshot.request.bodyNote, { kind: 'cut', size: 900 * 1024 + 40 });
  // Kept as UTF-8 bytes of its own (large-body.ts), read back as text.
  assert.equal((snapshot.request.body as Uint8Array).byteLength, 64 * 1024);
  assert.ok(cutBodyText(snapshot.request.body)!.startsWith('{\n  "password": "[redacted]",\n  "note": "nnn'));
  assert.deepEqual(snapshot.secrets, ['hunter2-in-body']);
  // The sub-request carries the secrets found in its parent's body, not the cut body again: it is
  // redacted already, and a sub-request shows none.
  const childSnapshot = child.snapshot(null, []);
  assert.equal(childSnapshot.request.body, undefined);
  assert.deepEqual(childSnapshot.request.bodyNote, { kind: 'cut', size: 900 * 1024 + 40 });
  assert.deepEqual(childSnapshot.secrets, ['hunter2-in-body']);
});

test('a small body is kept as parsed; the route the router named wins over the framework route', () => {
  const request = requestWith(10);
  const ctx = new ProfileContext({ token: 'a1b2c3', parentToken: null, request, subRequest: null });
  ctx.route = { pattern: '/upload/:kind', params: { kind: 'x' } };
  ctx.release(64 * 1024, DEFAULT_SECRET_KEYS);
  const snapshot = ctx.snapshot(null, []);
  assert.equal(snapshot.request.body, request.body);
  assert.equal(snapshot.request.bodyNote, null);
  assert.equal(snapshot.request.route, '/upload/:kind');
  assert.deepEqual(snapshot.request.params, { kind: 'x' });
  assert.equal('secrets' in snapshot, false);
});

test('a released sub-request context lets go of its SubRequest, which holds the parent request and its body', async () => {
  let request: FastifyRequest | null = requestWith(900 * 1024);
  const body = new WeakRef(request.body as object);
  const logs = [{ level: 30, time: 0, msg: 'rendered' }] as unknown as SubRequest['logs'];
  // Only the context holds the SubRequest, as in the recorder's queue.
  const { child } = releasedFamily(request, { id: 's1', parent: request, method: 'POST', url: '/upload?x=1', purpose: 'error', startedAt: 0, logs, statusCode: 422, contentType: 'application/problem+json', durationMs: 1 });
  request = null;
  await collectLater();
  assert.ok(body.deref() === undefined, 'the parent body is no longer reachable through the sub-request');
  // What the sub-request's snapshot reads of it is kept.
  const snapshot = child.snapshot(null, []);
  assert.deepEqual(snapshot.subRequest, { purpose: 'error', contentType: 'application/problem+json' });
  assert.equal(snapshot.logs, logs);
});
