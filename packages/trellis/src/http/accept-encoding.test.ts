import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptsCoding } from './accept-encoding.ts';

test('gzip named, in any case, or as x-gzip, is acceptable', () => {
  for (const header of ['gzip', 'gzip, deflate, br', 'br;q=1.0, GZIP;q=0.5', 'x-gzip', ' deflate ,gzip ']) assert.equal(acceptsCoding(header, 'gzip'), true, header);
});

test('RFC 9110 §12.5.3: a weight of 0 refuses the coding, named or by *', () => {
  for (const header of ['gzip;q=0', 'gzip; q=0.000, identity', '*;q=0', '*;q=0, identity', 'br, *;q=0']) assert.equal(acceptsCoding(header, 'gzip'), false, header);
  // The coding's own entry wins over `*`, both ways.
  assert.equal(acceptsCoding('*;q=0, gzip', 'gzip'), true);
  assert.equal(acceptsCoding('*, gzip;q=0', 'gzip'), false);
});

test('* accepts a coding not named; other codings, identity or nothing do not', () => {
  assert.equal(acceptsCoding('*', 'gzip'), true);
  for (const header of [undefined, '', 'identity', 'br', 'deflate, br', 'gzipx', 'gzip-like']) assert.equal(acceptsCoding(header, 'gzip'), false, String(header));
});
