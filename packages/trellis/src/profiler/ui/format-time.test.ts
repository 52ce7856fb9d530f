import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime, parseTime } from './format-time.ts';

test('times read day-monthname-year hours:minutes:seconds, in UTC unless told', () => {
  assert.equal(formatTime(Date.UTC(2026, 10, 22, 8, 5, 9)), '22-Nov-2026 08:05:09');
  assert.equal(formatTime(Date.UTC(2026, 0, 2, 0, 0, 0)), '02-Jan-2026 00:00:00');
  assert.equal(formatTime(Date.UTC(2026, 10, 22, 23, 30, 0), 'Europe/Paris'), '23-Nov-2026 00:30:00');
});

test('search bounds accept ISO dates, the display format and epoch ms', () => {
  const t = Date.UTC(2026, 10, 22, 8, 5, 9);
  assert.equal(parseTime('22-Nov-2026 08:05:09'), t);
  assert.equal(parseTime('2026-11-22T08:05:09'), t);
  assert.equal(parseTime('2026-11-22 08:05:09'), t);
  assert.equal(parseTime('2026-11-22T09:05:09+01:00'), t);
  assert.equal(parseTime(String(t)), t);
  assert.equal(parseTime('2026-11-22'), Date.UTC(2026, 10, 22));
  assert.equal(parseTime('yesterday'), null);
  assert.equal(parseTime('22-Foo-2026'), null);
});
