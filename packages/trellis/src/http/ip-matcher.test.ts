import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ipMatcher, isLoopback, toIpv4Form } from './ip-matcher.ts';

test('addresses are shown in IPv4 form', () => {
  assert.equal(toIpv4Form('::ffff:10.1.2.3'), '10.1.2.3');
  assert.equal(toIpv4Form('::1'), '127.0.0.1');
  assert.equal(toIpv4Form('2001:db8::1'), '2001:db8::1');
});

test('IPs and CIDR ranges match, in both families', () => {
  const m = ipMatcher(['10.0.0.0/8', '192.168.1.7', '2001:db8::/32']);
  assert.equal(m('10.200.1.1'), true);
  assert.equal(m('::ffff:10.0.0.1'), true);
  assert.equal(m('192.168.1.7'), true);
  assert.equal(m('192.168.1.8'), false);
  assert.equal(m('2001:db8::5'), true);
  assert.equal(m('not-an-ip'), false);
  assert.equal(ipMatcher([])('127.0.0.1'), false);
});

test('loopback', () => {
  assert.equal(isLoopback('127.0.0.1'), true);
  assert.equal(isLoopback('::1'), true);
  assert.equal(isLoopback('::ffff:127.0.0.1'), true);
  assert.equal(isLoopback('10.0.0.1'), false);
});

test('loopback is decided on the address, never on a string prefix', () => {
  for (const a of ['127.255.0.9', '::ffff:127.8.9.1', '0:0:0:0:0:0:0:1']) assert.equal(isLoopback(a), true, a);
  for (const a of ['127.evil.example', '127.0.0.1:80', '127.', '127.0.0.1.example', '<script>', '', '::2', '::ffff:128.0.0.1', '1270.0.0.1']) assert.equal(isLoopback(a), false, a);
});
