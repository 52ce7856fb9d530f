import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccessDecisionEvent } from '../observe/channels.ts';
import { decisionRecord } from './security-record.ts';

const event = (object: unknown, previousObject: unknown): AccessDecisionEvent =>
  ({ request: null, attribute: 'authoredByUser', granted: true, stage: 'post_denormalize', object, previousObject }) as unknown as AccessDecisionEvent;

test('a post-denormalize decision keeps a copy of a short object, taken when decided', () => {
  const object = { id: 7, rating: 4, body: 'Great' };
  const record = decisionRecord(event(object, null), 1) as { object: unknown; previous: unknown };
  object.body = 'changed after the check';
  assert.deepEqual(record.object, { id: 7, rating: 4, body: 'Great' });
  assert.equal(record.previous, null);
});

test('a post-denormalize decision names an object too long to keep (a 900 KB comment), new and previous alike', () => {
  const big = { id: 7, rating: 4, body: 'y'.repeat(900 * 1024) };
  const record = decisionRecord(event(big, { ...big }), 1) as { object: unknown; previous: unknown };
  assert.equal(record.object, 'object #7');
  assert.equal(record.previous, 'object #7');
});

test('an object just over the limit only once escaped is still named, not kept', () => {
  // 2,100 quotes: 2,100 characters counted, 4,200 once JSON escapes them, over the 4,096 kept.
  const record = decisionRecord(event({ id: 1, body: '"'.repeat(2100) }, null), 1) as { object: unknown };
  assert.equal(record.object, 'object #1');
});

test('an object that throws while it is walked is named, never thrown out of the profiler', () => {
  const hostile = { id: 3, get body(): string {
    throw new Error('getter refused');
  } };
  const record = decisionRecord(event(hostile, null), 1) as { object: unknown };
  assert.equal(record.object, 'object #3');
});
