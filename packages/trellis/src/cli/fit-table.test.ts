import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { columnWidths, fitCell, printable, tableLine, terminalWidth } from './fit-table.ts';
import { createOutput } from './output.ts';
import { summaryTable } from './profile-rows.ts';
import type { ProfileSummary } from '../profiler/profile.ts';

/** A stream that says it is a terminal of `columns` columns, keeping what is written. */
function terminal(columns: number | undefined, isTTY = true) {
  const chunks: string[] = [];
  const stream = new Writable({ write: (c, _e, cb) => (chunks.push(String(c)), cb()) }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY, columns });
  return { stream, text: () => chunks.join('') };
}

const summary = (over: Partial<ProfileSummary>): ProfileSummary => ({ token: 'a1b2c3', parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://localhost/books?page=1', time: Date.UTC(2026, 10, 22, 8, 5, 9), statusCode: 200, durationMs: 3.25, ...over });

describe('fit-table', () => {
  test('columns as wide as their widest cell; too wide, the flex column gives way down to its minimum', () => {
    const rows = [['a', 'bb', 'url'], ['aaaa', 'b', 'http://example.test/a/long/path']];
    assert.deepEqual(columnWidths(rows, null, 2), [4, 2, 31]);
    assert.deepEqual(columnWidths(rows, 30, 2), [4, 2, 20]);
    assert.deepEqual(columnWidths(rows, 5, 2), [4, 2, 12]);
  });

  test('a cut cell ends in an ellipsis; the last cell is not padded; lines carry no trailing space', () => {
    assert.equal(fitCell('http://example.test/', 10, true), 'http://ex…');
    assert.equal(fitCell('ab', 4, false), 'ab  ');
    assert.equal(tableLine(['a', 'b', ''], [2, 2, 5]), 'a   b');
  });

  test('control characters from a profile are shown escaped, never sent to the terminal', () => {
    assert.equal(printable('GET /\x1b[2J\x07\r\n\x9b'), 'GET /\\x1b[2J\\x07\\x0d\\x0a\\x9b');
    assert.equal(printable('déjà vu ✓'), 'déjà vu ✓');
  });

  test('the width is COLUMNS when sane, else the terminal\'s, else none for a pipe', () => {
    assert.equal(terminalWidth(terminal(120).stream, { COLUMNS: '70' }), 70);
    assert.equal(terminalWidth(terminal(120).stream, { COLUMNS: 'wide' }), 120);
    assert.equal(terminalWidth(terminal(120).stream, { COLUMNS: '5' }), 120);
    assert.equal(terminalWidth(terminal(undefined, false).stream, {}), null);
  });

  test('on a terminal: colour by status class and duration, the header dim; NO_COLOR turns it off', () => {
    const rows = [summary({ statusCode: 503, durationMs: 1500 }), summary({ token: 'd4e5f6', statusCode: 404 }), summary({ token: '0a0b0c', parent: 'a1b2c3' })];
    const tty = terminal(200);
    const lines = summaryTable(createOutput(tty.stream, {}), rows, 200);
    assert.match(lines[0]!, /^\x1b\[2mtoken /);
    assert.match(lines[1]!, /\x1b\[31m503\s*\x1b\[39m/);
    assert.match(lines[1]!, /\x1b\[31m1500\.0 ms\s*\x1b\[39m/);
    assert.match(lines[2]!, /\x1b\[33m404\s*\x1b\[39m/);
    assert.match(lines[3]!, /^\x1b\[2m0a0b0c\x1b\[22m/);
    const plain = summaryTable(createOutput(terminal(200).stream, { NO_COLOR: '1' }), rows, 200);
    assert.ok(plain.every((l) => !l.includes('\x1b')));
    assert.equal(plain[3], '0a0b0c  22-Nov-2026 08:05:09  200     GET     3.3 ms     127.0.0.1  http://localhost/books?page=1 (sub-request of a1b2c3)');
  });

  test('a huge URL is cut to the width, whatever its length', () => {
    const lines = summaryTable(createOutput(terminal(80).stream, { NO_COLOR: '1' }), [summary({ url: `http://localhost/${'x'.repeat(1_000_000)}` })], 80);
    assert.equal(lines[1]!.length, 80);
    assert.ok(lines[1]!.endsWith('  http://local…'), lines[1]);
  });
});
