import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ForwardedAddressError, forwardedFor, xForwardedFor } from './forwarded.ts';

test('Forwarded for= values are extracted without quotes, brackets or ports (RFC 7239)', () => {
  assert.deepEqual(forwardedFor('for=192.0.2.43, for="[2001:db8:cafe::17]:4711";proto=https, For="198.51.100.17:80";by=203.0.113.60'), [
    '192.0.2.43',
    '2001:db8:cafe::17',
    '198.51.100.17',
  ]);
  assert.deepEqual(forwardedFor('for="[::ffff:192.0.2.1]"'), ['::ffff:192.0.2.1']);
  assert.deepEqual(forwardedFor('proto=https;host=x'), [], 'no for: no client named');
});

test('X-Forwarded-For is split and trimmed, empty elements ignored', () => {
  assert.deepEqual(xForwardedFor(' 1.2.3.4 , 5.6.7.8,'), ['1.2.3.4', '5.6.7.8']);
  assert.deepEqual(xForwardedFor('2001:db8::1, ::ffff:10.0.0.1'), ['2001:db8::1', '::ffff:10.0.0.1']);
});

test('anything that is not an IP literal is refused, naming the header and the value', () => {
  const xff = ['<script>alert(1)</script>', '127.evil.example', '127.0.0.1:80', '[::1]', 'localhost', 'unknown', '1.2.3.4.5', '999.1.1.1', '1.2.3.4, evil', '', ' , ', '::1%eth0'];
  for (const value of xff) {
    assert.throws(() => xForwardedFor(value), (e: unknown) => e instanceof ForwardedAddressError && e.header === 'X-Forwarded-For', JSON.stringify(value));
  }
  const forwarded = ['for=unknown', 'for=_hidden', 'for="<script>"', 'for=127.evil.example', 'for="[::1"', 'for="[::1]:port"', 'for=[2001:db8::1]x', 'for=', 'for="1.2.3.4:99999999"', 'for=192.0.2.1, for=nope'];
  for (const value of forwarded) {
    assert.throws(() => forwardedFor(value), (e: unknown) => e instanceof ForwardedAddressError && e.header === 'Forwarded', JSON.stringify(value));
  }
});
