import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';
import { buildProfile, summaryOf } from './build-profile.ts';
import { defaultCollectors } from './panels/default-collectors.ts';
import { mayHoldSecret, type SnapshotText } from './may-hold-secret.ts';
import { cleanSnapshotFor, snapshotFor } from './profile-sink.contract.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import { Redaction } from './redact.ts';
import { asSent } from './profiler-thread-messages.ts';
import { withWireHeaders } from './packed-snapshot.ts';
import { factsAt, pushFacts, withHeaderFacts } from './snapshot-facts.ts';
import { headerObject } from './wire-headers.ts';

const keys = DEFAULT_SECRET_KEYS;

/** A snapshot as the profiler thread tests it: its text with the response headers in, and its facts. */
function asText(whole: RequestSnapshot): SnapshotText {
  const { snapshot, payload, wire } = asSent(whole);
  const facts: (string | number | null)[] = [];
  pushFacts(facts, whole, false);
  // As the profiler thread does it (profiler-thread.ts, store).
  const headers = wire === null ? null : headerObject(wire);
  const f = headers === null ? factsAt(facts, 0) : withHeaderFacts(factsAt(facts, 0), headers);
  assert.equal(f.summary.url, summaryOf(whole).url);
  return {
    json: withWireHeaders(JSON.stringify(snapshot), headers),
    payload,
    url: f.summary.url,
    requestUrl: f.requestUrl,
    profilerHeaders: f.profilerHeaders,
    previousTokenHeader: f.previousTokenHeader,
    secretsFound: f.secretsFound,
  };
}

/** Node refuses to write these (validateHeaderName, validateHeaderValue): no block can hold them. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The snapshot with its response headers as the request thread keeps them over HTTP/1.x: the
 * header block written to the socket (wire-headers.ts), with the fields no block can hold left out.
 */
function withWire(s: RequestSnapshot): RequestSnapshot {
  if (s.response === null) return s;
  let wire = 'HTTP/1.1 200 OK\r\n';
  for (const [name, value] of Object.entries(s.response.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) if (TOKEN.test(name) && !BAD_VALUE.test(String(v))) wire += `${name}: ${String(v)}\r\n`;
  }
  return { ...s, response: { ...s.response, headers: {}, wire: `${wire}\r\n` } };
}

/** Whether building the profile redacts anything: what mayHoldSecret must never deny. */
function redactsSomething(snapshot: RequestSnapshot): boolean {
  let found = false;
  const spy = Object.getOwnPropertyDescriptor(Redaction.prototype, 'secrets')!.value as () => string[];
  const built = buildProfile(snapshot, [...defaultCollectors, { name: 'spy', collect: (ctx) => void (found = spy.call(ctx.redaction).length > 0) }], { maxBodyBytes: 4096, redactKeys: keys });
  assert.ok(!(built instanceof Promise));
  return found || JSON.stringify(built).includes('[redacted]');
}

const clean = cleanSnapshotFor('a00001');
const call = (url: string): NonNullable<RequestSnapshot['httpCalls']>[number] => ({ method: 'GET', url, atMs: 1, durationMs: 1, status: 200, requestHeaders: {}, responseHeaders: {}, error: null });
const variants: [string, RequestSnapshot][] = [
  ['an Authorization header', { ...clean, request: { ...clean.request, headers: { ...clean.request.headers, authorization: 'Bearer abc123' } } }],
  ['a Cookie header', { ...clean, request: { ...clean.request, headers: { ...clean.request.headers, cookie: 'sid=abc123' } } }],
  ['a Set-Cookie response header', { ...clean, response: { ...clean.response!, headers: { ...clean.response!.headers, 'set-cookie': 'sid=abc123' } } }],
  ['a secret-named request header', { ...clean, request: { ...clean.request, headers: { ...clean.request.headers, 'x-api-key': 'abc123' } } }],
  ['a secret-named query parameter', { ...clean, request: { ...clean.request, url: '/books?api_key=abc123', query: { api_key: 'abc123' } } }],
  ['a secret in the URL only', { ...clean, request: { ...clean.request, url: '/books?password=abc123', query: {} } }],
  ['a secret-named body field, deep', { ...clean, request: { ...clean.request, body: { user: { credentials: { pin: 'abc123' } } } } }],
  ['a secret-named route parameter', { ...clean, request: { ...clean.request, params: { resetToken: 'abc123' } } }],
  ['a secret-named log context field', { ...clean, logs: [{ time: 1, level: 'info', channel: 'app', message: 'signed in', context: { session: 'abc123' } }] }],
  ['a secret-named field in the response body', { ...clean, response: { ...clean.response!, payload: '{"token":"abc123"}', size: 18 } }],
  ['a response body spelling a key with \\u escapes', { ...clean, response: { ...clean.response!, payload: '{"pass\\u0077ord":"abc123"}', size: 26 } }],
  ['a body field named like the profiler header', { ...clean, request: { ...clean.request, body: { 'x-debug-token': 'abc123' } } }],
  ['secrets an app collector found', { ...clean, secrets: ['abc123'] }],
  ['a secret in the Referer query', { ...clean, request: { ...clean.request, headers: { ...clean.request.headers, referer: 'http://127.0.0.1/reset?token=abc123' } } }],
  ['a secret in a Location header', { ...clean, response: { ...clean.response!, headers: { ...clean.response!.headers, location: '/next?api_key=abc123' } } }],
  // Found by an outside review: the panels redact an outgoing call's URL as a URL; the text test looked at URL-valued headers only.
  ['a secret in an outgoing call\'s URL', { ...clean, httpCalls: [call('http://api.test/x?api_key=abc123def')] }],
  ['a secret after a raw # in the request target', { ...clean, request: { ...clean.request, url: '/books?page=1#&password=abc123', query: {} } }],
  // A trusted proxy's X-Forwarded-Proto makes the protocol; a `?` in it hides the query from a test of the absolute URL.
  ['a secret in the URL behind a protocol holding "?"', { ...clean, request: { ...clean.request, protocol: 'http?a=', url: '/books?api_key=abc123', query: {} } }],
];

describe('mayHoldSecret', () => {
  test('a request without a secret may be stored as it is: building it redacts nothing', () => {
    assert.equal(mayHoldSecret(asText(clean), keys), false);
    assert.equal(redactsSomething(clean), false);
    const child = { ...clean, token: 'a00002', parentToken: 'a00001', subRequest: { purpose: 'error', contentType: 'application/problem+json' } };
    assert.equal(mayHoldSecret(asText(child), keys), false);
  });

  for (const [name, snapshot] of variants) {
    test(`says yes for ${name}, whose profile redaction changes`, () => {
      assert.equal(redactsSomething(snapshot), true, 'the case is a real secret');
      assert.equal(mayHoldSecret(asText(snapshot), keys), true);
      // The same with the response headers kept as the block written to the socket.
      assert.equal(redactsSomething(withWire(snapshot)), true, 'the case is a real secret, as a block');
      assert.equal(mayHoldSecret(asText(withWire(snapshot)), keys), true, 'as a block');
    });
  }

  test('a clean request whose headers are kept as their block may be stored as it is too', () => {
    assert.ok(withWire(clean).response!.wire!.includes('\r\nx-debug-token: a00001\r\n'));
    assert.equal(asText(withWire(clean)).profilerHeaders, true);
    assert.equal(mayHoldSecret(asText(withWire(clean)), keys), false);
    assert.equal(redactsSomething(withWire(clean)), false);
  });

  test("an outgoing call's URL without a secret leaves the snapshot to be stored as it is", () => {
    const snapshot = { ...clean, httpCalls: [call('http://api.test/x?page=2')] };
    assert.equal(redactsSomething(snapshot), false);
    assert.equal(mayHoldSecret(asText(snapshot), keys), false);
  });

  test('says yes for the canary request of the sink contract', () => {
    assert.equal(mayHoldSecret(asText(snapshotFor('b00001')), keys), true);
  });

  test('the profiler headers are passed over only as the response headers: once each, and known to be there', () => {
    assert.equal(mayHoldSecret({ ...asText(clean), profilerHeaders: false }, keys), true);
    const sent = { ...clean, request: { ...clean.request, headers: { ...clean.request.headers, 'x-debug-token': 'a00000' } } };
    assert.equal(mayHoldSecret(asText(sent), keys), true);
  });

  test("the snapshot's own fields are no keys of the text: its tokens do not make it built", () => {
    const text = asText(clean);
    assert.equal(text.json.startsWith('[3,"a00001",null,'), true);
    // The same snapshot written unpacked (an older version's form) has keys named "token".
    assert.equal(mayHoldSecret({ ...text, json: JSON.stringify({ ...clean, response: { ...clean.response!, payload: null } }) }, keys), true);
  });

  test('a key fragment JSON would escape, or not printable ASCII, makes every snapshot be built first', () => {
    assert.equal(mayHoldSecret(asText(clean), [...keys, 'a"b']), true);
    assert.equal(mayHoldSecret(asText(clean), [...keys, 'back\\slash']), true);
    assert.equal(mayHoldSecret(asText(clean), [...keys, 'σ']), true);
  });

  test('follows the configured key list', () => {
    const withSession = { ...clean, logs: [{ time: 1, level: 'info', channel: 'app', message: 'hi', context: { session: 'abc123' } }] };
    assert.equal(mayHoldSecret(asText(withSession), ['password']), false);
    // Credential headers are redacted whatever the list says.
    for (const header of ['authorization', 'proxy-authorization', 'cookie']) {
      assert.equal(mayHoldSecret(asText({ ...clean, request: { ...clean.request, headers: { ...clean.request.headers, [header]: 'abc123' } } }), ['password']), true, header);
    }
    assert.equal(mayHoldSecret(asText(variants[2]![1]), ['password']), true, 'set-cookie');
    assert.equal(mayHoldSecret(asText(clean), [...keys, 'accept']), true);
  });
});

/**
 * Generated snapshots: names drawn from secret-named, credential, profiler, URL-valued and innocent
 * keys in any case, with quotes, backslashes and escapes; values holding JSON, URLs with and
 * without secret parameters. Whatever building the profile redacts, the text test must see.
 */
describe('mayHoldSecret, generated', () => {
  const name = fc.oneof(
    fc.constantFrom('password', 'Api_Key', 'X-API-KEY', 'resetToken', 'sessionId', 'authorization', 'Proxy-Authorization', 'cookie', 'Set-Cookie', 'x-debug-token', 'x-debug-token-link', 'x-previous-debug-token', 'referer', 'Location', 'content-location', 'accept', 'title', 'page', 'to\\ken', 'pass"word', 'tok\u212Aen', 'TO\u212AEN', 'p\u0430ssword', 'cvv2', 'my-pwd', 'credentials'),
    fc.string({ maxLength: 12 }),
  );
  const value = fc.oneof(
    fc.constantFrom('abc123', '/next?api_key=abc123', 'http://a.test/x?token=abc123', 'http://a.test/x?page=2', '{"password":"abc123"}', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2ln', 'a\\"b', '"quoted":', ''),
    fc.string({ maxLength: 16 }),
  );
  const record = fc.dictionary(name, value, { maxKeys: 4 });
  const snapshot = fc.record({ requestHeaders: record, query: record, params: record, body: fc.option(fc.dictionary(name, fc.oneof(value, record), { maxKeys: 3 }), { nil: undefined }), context: record, responseHeaders: record, payload: fc.option(fc.json(), { nil: null }) }).map(({ requestHeaders, query, params, body, context, responseHeaders, payload }): RequestSnapshot => {
    const lower = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v]));
    const search = new URLSearchParams(query).toString();
    return {
      ...clean,
      request: { ...clean.request, url: `/books/1${search ? `?${search}` : ''}`, headers: { ...clean.request.headers, ...lower(requestHeaders) }, query, params, body },
      logs: Object.keys(context).length > 0 ? [{ time: 1, level: 'info', channel: 'app', message: 'm', context }] : [],
      response: { ...clean.response!, headers: { ...lower(responseHeaders), ...clean.response!.headers }, payload, size: payload?.length ?? 0 },
    };
  });

  test('never says no for a snapshot whose profile redaction changes', () => {
    fc.assert(
      fc.property(snapshot, (s) => {
        if (redactsSomething(s)) assert.equal(mayHoldSecret(asText(s), keys), true);
      }),
      { numRuns: 400 },
    );
  });

  test('never says no for one whose response headers are kept as their block', () => {
    fc.assert(
      fc.property(snapshot.map(withWire), (s) => {
        if (redactsSomething(s)) assert.equal(mayHoldSecret(asText(s), keys), true);
      }),
      { numRuns: 400 },
    );
  });
});
