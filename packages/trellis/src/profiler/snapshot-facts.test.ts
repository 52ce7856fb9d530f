import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summaryOf } from './build-profile.ts';
import { hostileSnapshot } from './data-collector.contract.ts';
import { factsAt, pushFacts } from './snapshot-facts.ts';

test('the facts pushed for a snapshot hold its summary, field for field', () => {
  const plain = hostileSnapshot();
  const absoluteForm = { ...plain, request: { ...plain.request, url: 'http://other.test/books/1?x=1' }, durationMs: 12.3456789, parentToken: 'abc123' };
  const facts: (string | number | null)[] = [];
  for (const snapshot of [plain, absoluteForm]) pushFacts(facts, snapshot, false);
  assert.deepEqual(factsAt(facts, 0).summary, summaryOf(plain));
  assert.deepEqual(factsAt(facts, 1).summary, summaryOf(absoluteForm));
  assert.equal(factsAt(facts, 1).requestUrl, 'http://other.test/books/1?x=1');
});

test('the flags say which of the profiler\'s headers the response holds', () => {
  const plain = hostileSnapshot();
  const headers = { 'x-debug-token': 'abc123', 'x-debug-token-link': '/_profiler/abc123' };
  const withProfiler = { ...plain, response: { ...plain.response!, headers } };
  const errorAnswer = { ...plain, response: { ...plain.response!, headers: { ...headers, 'x-previous-debug-token': 'abc000' } } };
  const facts: (string | number | null)[] = [];
  for (const snapshot of [{ ...plain, response: null }, withProfiler, errorAnswer]) pushFacts(facts, snapshot, false);
  assert.deepEqual([0, 1, 2].map((i) => [factsAt(facts, i).profilerHeaders, factsAt(facts, i).previousTokenHeader]), [[false, false], [true, false], [true, true]]);
});
