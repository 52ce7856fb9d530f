import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packApi, unpackApi, type ApiRecord } from './api-record.ts';
import { profiledRequest } from './build-profile.ts';
import { apiCollector } from './panels/api/api-collector.ts';
import { eventsCollector } from './panels/events/events-collector.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import { hostileSnapshot } from './data-collector.contract.ts';

const negotiated = { accept: 'application/ld+json', format: 'jsonld', mediaType: 'application/ld+json', extension: null };

function record(provider: boolean, startUs = [10, 420]): ApiRecord {
  return {
    resource: 'Book',
    operation: 'get',
    stages: { names: ['negotiate', 'provide'], startUs, durationUs: [410, 1388], outcomes: ['ok', 'skipped'] },
    negotiation: null,
    ...(provider ? { provider: 'BookProvider', processor: 'process' } : {}),
  };
}

/** What the snapshot carries once encoded and decoded, as on the profiler thread or when read. */
const sent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test('a packed record reads back as the whole record it was made from, with the negotiation of the request', () => {
  for (const provider of [true, false]) {
    for (const n of [negotiated, null]) {
      assert.deepEqual(unpackApi(sent(packApi(record(provider), n))), { ...record(provider), negotiation: n });
    }
  }
});

test('parts the plain shape cannot carry (spaces, commas, empty, no stage) read back as they were', () => {
  const odd: ApiRecord = {
    resource: '[Book] of mine',
    operation: '',
    stages: { names: ['a,b', 'c d'], startUs: [1, 2], durationUs: [3, 4], outcomes: ['ok', 'error'] },
    negotiation: null,
    provider: 'Provider, Inc.',
    processor: 'process',
  };
  const browser = { accept: 'text/html, application/xhtml+xml;q=0.9', format: 'html', mediaType: 'text/html', extension: null };
  assert.deepEqual(unpackApi(sent(packApi(odd, browser))), { ...odd, negotiation: browser });
  const none = { accept: null, format: null, mediaType: null, extension: null };
  const empty: ApiRecord = { resource: 'Book', operation: 'get', stages: { names: [], startUs: [], durationUs: [], outcomes: [] }, negotiation: null };
  for (const n of [none, null, negotiated]) assert.deepEqual(unpackApi(sent(packApi(empty, n))), { ...empty, negotiation: n });
});

test('the common shape is written without a quote for JSON to escape', () => {
  assert.equal(JSON.stringify(packApi(record(true), negotiated).shape).slice(1, -1).includes('\\'), false);
});

test('stages that follow each other are sent with their first start only, and read back whole', () => {
  const following = { ...record(true), stages: { ...record(true).stages, startUs: [10, 420], durationUs: [410, 1388] } };
  const packed = packApi(following, negotiated);
  assert.deepEqual(packed.startUs, [10]);
  assert.deepEqual(unpackApi(sent(packed)).stages.startUs, [10, 420]);
  const gap = { ...record(true), stages: { ...record(true).stages, startUs: [10, 421], durationUs: [410, 1388] } };
  assert.deepEqual(packApi(gap, negotiated).startUs, [10, 421]);
  assert.deepEqual(unpackApi(sent(packApi(gap, negotiated))).stages.startUs, [10, 421]);
});

test('runs of the same operation down the same path share their shape text; timings stay their own', () => {
  const a = packApi(record(true, [10, 420]), negotiated);
  const b = packApi(record(true, [30, 900]), { ...negotiated });
  assert.equal(a.shape, b.shape);
  assert.deepEqual([unpackApi(a).stages.startUs, unpackApi(b).stages.startUs], [[10, 420], [30, 900]]);
  const otherAccept = packApi(record(true), { ...negotiated, accept: 'application/json' });
  assert.notEqual(otherAccept.shape, a.shape);
  const otherOutcome = packApi({ ...record(true), stages: { ...record(true).stages, outcomes: ['ok', 'error'] } }, negotiated);
  assert.equal(unpackApi(otherOutcome).stages.outcomes[1], 'error');
});

test('collectors see the same record, packed or whole (older profiles hold it whole)', () => {
  const base: RequestSnapshot = hostileSnapshot();
  const options = { maxBodyBytes: 4096, redactKeys: ['password'] };
  const whole = profiledRequest({ ...base, api: { ...record(true), negotiation: negotiated } }, options);
  const packed = profiledRequest(sent({ ...base, api: packApi(record(true), negotiated) }), options);
  assert.deepEqual(apiCollector.collect(packed), apiCollector.collect(whole));
  assert.deepEqual(eventsCollector.collect(packed), eventsCollector.collect(whole));
});

test('a pipeline run to its end is written short (its stage names one star, its outcomes a letter each) and reads back whole', () => {
  const names = ['negotiate', 'provide', 'security', 'deserialize', 'post_denormalize', 'validate', 'process', 'serialize'];
  const outcomes = ['ok', 'ok', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'ok'] as const;
  const full: ApiRecord = { ...record(true), stages: { names, startUs: [0, 1, 2, 3, 4, 5, 6, 7], durationUs: [1, 1, 1, 1, 1, 1, 1, 1], outcomes: [...outcomes] } };
  const packed = packApi(full, negotiated);
  assert.equal(packed.shape, 'Book get BookProvider process * oossssso application/ld+json jsonld application/ld+json ');
  assert.deepEqual(unpackApi(sent(packed)), { ...full, negotiation: negotiated });
  // Cut short by an error: listed in words, as before.
  const cut: ApiRecord = { ...full, stages: { names: names.slice(0, 3), startUs: [0, 1, 2], durationUs: [1, 1, 1], outcomes: ['ok', 'ok', 'error'] } };
  assert.match(packApi(cut, negotiated).shape, / negotiate,provide,security ok,ok,error /);
  assert.deepEqual(unpackApi(sent(packApi(cut, negotiated))), { ...cut, negotiation: negotiated });
  // A profile stored by an earlier version, its full run in words, reads as it did.
  const older = { shape: `Book get BookProvider process ${names.join(',')} ${outcomes.join(',')} application/ld+json jsonld application/ld+json `, startUs: [0], durationUs: [1, 1, 1, 1, 1, 1, 1, 1] };
  assert.deepEqual(unpackApi(older), { ...full, negotiation: negotiated });
});
