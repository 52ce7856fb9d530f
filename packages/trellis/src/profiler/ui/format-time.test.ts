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

test('every month reads as its three-letter English name and round-trips through the search (no ICU "Sept")', () => {
  const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  for (let month = 0; month < 12; month++) {
    const t = Date.UTC(2026, month, 22, 13, 4, 59);
    const shown = formatTime(t);
    assert.equal(shown, `22-${names[month]}-2026 13:04:59`);
    assert.equal(parseTime(shown), t);
    assert.match(formatTime(t, 'America/New_York'), new RegExp(`^22-${names[month]}-2026 0[89]:04:59$`));
  }
  assert.equal(formatTime(Date.UTC(2026, 8, 22, 0, 0, 0), 'Asia/Tokyo'), '22-Sep-2026 09:00:00');
  assert.equal(formatTime(Date.UTC(2026, 11, 31, 23, 59, 59), 'Asia/Tokyo'), '01-Jan-2027 08:59:59');
});
