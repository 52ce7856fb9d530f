/**
 * The contract every DataCollector passes (see data-collector.ts): JSON-safe output, no
 * per-request state kept on the collector, request-derived values passed through the redaction.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError } from '../kernel/http-error.ts';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';
import type { DataCollector } from './data-collector.ts';
import { errorChain } from '../errors/flatten-error.ts';
import type { ProfiledRequest, RequestSnapshot } from './profiled-request.ts';
import { profiledRequest as buildRequest } from './build-profile.ts';
import { packApi } from './api-record.ts';
import { packMarks } from './packed-marks.ts';

/** One fake request's worth of distinguishing values; `secret` is sent under secret-named keys only. */
interface Variant {
  readonly id: string;
  readonly secret: string;
  readonly start: number;
}

const A: Variant = { id: 'alpha', secret: 'sEcReT-alpha-7f3a9c', start: Date.UTC(2026, 10, 22, 8, 0, 0) };
const B: Variant = { id: 'bravo', secret: 'sEcReT-bravo-91be04', start: Date.UTC(2026, 10, 22, 9, 30, 0) };

const errors = new Map<Variant, Error>();
/** One error chain per variant: made once, so its stack trace is the same however often it is collected. */
function errorOf(v: Variant): Error {
  let error = errors.get(v);
  if (!error) errors.set(v, (error = new Error(`lookup of ${v.id} failed`, { cause: HttpError.of('route_not_found', { method: 'POST', path: `/books/${v.id}` }) })));
  return error;
}

/**
 * A profiled request carrying `v.secret` in a secret header, a secret query parameter, a secret
 * body field, a log record's secret context field, a query parameter (which has no name: only
 * the secrets found elsewhere tell it) and the response's Set-Cookie and JSON body
 * (secret-named field). Every other value differs between variants, so the two can be told apart.
 */
function snapshotOf(v: Variant): RequestSnapshot {
  const payload = JSON.stringify({ id: v.id, token: v.secret });
  return {
    token: `tok${v.id}`,
    parentToken: null,
    children: [],
    request: {
      method: 'POST',
      url: `/books/${v.id}?q=${v.id}&api_key=${v.secret}`,
      protocol: 'http',
      host: 'shop.test',
      httpVersion: '1.1',
      ip: '127.0.0.1',
      headers: { host: 'shop.test', 'content-type': 'application/json', authorization: `Bearer ${v.secret}`, 'x-trace': v.id },
      query: { q: v.id, api_key: v.secret },
      body: { title: `Book ${v.id}`, password: v.secret },
      bodyNote: null,
      route: '/books/:id',
      params: { id: v.id },
    },
    subRequest: null,
    startTime: v.start,
    durationMs: v.id.length,
    statusCode: 200,
    marks: packMarks({ names: ['onRequest', `handler-${v.id}`], atUs: [0, v.id.length * 250] }),
    exception: errorChain(errorOf(v)),
    logs: [{ time: v.start + 1, level: 'info', channel: 'app', message: `loaded ${v.id}`, context: { book: v.id, password: v.secret } }],
    queries: [{ sql: 'select * from books where id = ? and api_key = ?', parameters: [v.id, v.secret], durationMs: v.id.length / 10, atMs: 1, error: null }],
    httpCalls: [{ method: 'GET', url: `https://stock.test/books/${v.id}?api_key=${v.secret}`, atMs: 0.5, durationMs: 2, status: 200, requestHeaders: { authorization: `Bearer ${v.secret}`, 'x-book': v.id }, responseHeaders: { 'content-type': 'application/json', 'x-debug-token-link': 'https://stock.test/_profiler/abc123' }, error: null }],
    // Packed as the request thread hands it on (api-record.ts): a resource named by the variant.
    api: packApi(
      { resource: `Book${v.id}`, operation: 'post', stages: { names: ['provide'], startUs: [250], durationUs: [500], outcomes: ['ok'] }, negotiation: null, provider: `Provider${v.id}`, processor: 'process' },
      { accept: 'application/ld+json', format: 'jsonld', mediaType: 'application/ld+json', extension: null },
    ),
    routing: { path: `/books/${v.id}`, methods: ['GET', 'HEAD'], trace: { entries: [{ path: '/books/:id', methods: ['GET', 'HEAD'], level: 'method', closeness: 2, why: `The path matches, the method POST does not (${v.id}).` }], omitted: 0 } },
    security: [
      { kind: 'authentication', atMs: 0.5, authenticator: 'jwt', outcome: 'success', user: `user-${v.id}`, roles: ['ROLE_USER'], reachableRoles: ['ROLE_USER'], reason: null },
      { kind: 'authentication', atMs: 0.6, authenticator: 'api-key', outcome: 'failure', user: null, roles: [], reachableRoles: [], reason: `unknown key ${v.secret}` },
      { kind: 'vote', atMs: 1, voter: 'RoleVoter', attribute: 'ROLE_USER', subject: `Book #${v.id}`, vote: 'grant', strategy: 'affirmative' },
      { kind: 'decision', atMs: 1.1, attribute: 'ROLE_USER', granted: true, stage: 'security', message: null, expression: null, path: null },
    ],
    // A request sent with X-Trellis-Profile-CPU: a frame of the app named after the variant.
    cpu: {
      profile: {
        nodes: [
          { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2] },
          { id: 2, callFrame: { functionName: `load ${v.id}`, scriptId: '7', url: `file:///app/${v.id}.js`, lineNumber: 4, columnNumber: 2 }, hitCount: 2 },
        ],
        startTime: 1000, endTime: 1000 + v.id.length * 100, samples: [2, 2], timeDeltas: [100, 100],
      },
      intervalUs: 100, samplesMerged: 1, nodesFolded: 0,
    },
    response: {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'set-cookie': `sid=${v.secret}; HttpOnly`, 'x-book': v.id },
      payload,
      size: Buffer.byteLength(payload),
    },
    collected: {},
  };
}

/** The fixture with markup for every distinguishing value: what every panel must show escaped. */
export const HOSTILE_MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';
export function hostileSnapshot(): RequestSnapshot {
  return snapshotOf({ id: HOSTILE_MARKUP, secret: 'sEcReT-hostile-5d1e', start: A.start });
}

const withRedaction = (snapshot: RequestSnapshot): ProfiledRequest => buildRequest(snapshot, { maxBodyBytes: 4096, redactKeys: DEFAULT_SECRET_KEYS });
const profiledRequest = (v: Variant): ProfiledRequest => withRedaction(snapshotOf(v));

const collect = (collector: DataCollector, ctx: ProfiledRequest): Promise<unknown> => Promise.resolve(collector.collect(ctx));

export function dataCollectorContract(collector: DataCollector): void {
  describe(`DataCollector contract: ${collector.name}`, () => {
    it('has a kebab-case or snake_case name (Symfony ids such as http_client)', () => {
      assert.match(collector.name, /^[a-z][a-z0-9]*([-_][a-z0-9]+)*$/);
    });

    it('returns JSON-safe data: a JSON round trip gives it back unchanged', async () => {
      const data = await collect(collector, profiledRequest(A));
      assert.notEqual(data, undefined);
      assert.deepEqual(JSON.parse(JSON.stringify(data)), data);
    });

    it("needs nothing but the snapshot: a structured clone of it (another thread's copy) gives the same data", async () => {
      const here = await collect(collector, profiledRequest(A));
      const there = await collect(collector, withRedaction(structuredClone(snapshotOf(A))));
      assert.deepEqual(there, here);
    });

    it('gives the same data from a JSON round trip of the snapshot (a profile stored unbuilt, built when read)', async () => {
      const here = await collect(collector, profiledRequest(A));
      const later = await collect(collector, withRedaction(JSON.parse(JSON.stringify(snapshotOf(A)))));
      assert.deepEqual(later, here);
    });

    it('keeps no per-request state: two requests collected interleaved each get their own data', async () => {
      const alone = { a: await collect(collector, profiledRequest(A)), b: await collect(collector, profiledRequest(B)) };
      const pa = collector.collect(profiledRequest(A));
      const pb = collector.collect(profiledRequest(B));
      const [a, b] = await Promise.all([pa, pb]);
      assert.deepEqual(a, alone.a);
      assert.deepEqual(b, alone.b);
      assert.notDeepEqual(a, b);
    });

    it('passes request-derived values through the redaction: no secret-named value comes out', async () => {
      for (const v of [A, B]) {
        const text = JSON.stringify(await collect(collector, profiledRequest(v)));
        assert.equal(text.includes(v.secret), false, `${collector.name} leaked ${v.secret}: ${text}`);
        assert.equal(text.includes(v.id), true, `${collector.name} data does not come from the request: ${text}`);
      }
    });
  });
}
