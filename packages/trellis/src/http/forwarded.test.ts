import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardedFor, xForwardedFor } from './forwarded.ts';

test('Forwarded for= values are extracted without quotes, brackets or ports (RFC 7239)', () => {
  assert.deepEqual(forwardedFor('for=192.0.2.43, for="[2001:db8:cafe::17]:4711";proto=https, For="198.51.100.17:80";by=203.0.113.60'), [
    '192.0.2.43',
    '2001:db8:cafe::17',
    '198.51.100.17',
  ]);
  assert.deepEqual(forwardedFor('proto=https;host=x'), []);
});

test('X-Forwarded-For is split and trimmed', () => {
  assert.deepEqual(xForwardedFor(' 1.2.3.4 , 5.6.7.8,'), ['1.2.3.4', '5.6.7.8']);
});
