import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isToken, issuedTokensKnown, randomToken, TokenIssuer } from './token.ts';

test('tokens are 6 lowercase hex characters', () => {
  for (let i = 0; i < 1000; i++) assert.match(randomToken(), /^[0-9a-f]{6}$/);
  assert.equal(isToken('a1b2c3'), true);
  assert.equal(isToken('A1B2C3'), false);
  assert.equal(isToken('latest'), false);
  assert.equal(isToken('a1b2c3d'), false);
});

test('the issuer never hands out a token twice within its capacity', () => {
  const issuer = new TokenIssuer(20_000);
  const tokens = new Set<string>();
  for (let i = 0; i < 20_000; i++) tokens.add(issuer.issue());
  assert.equal(tokens.size, 20_000);
});

test('the issuer never hands out a token the store held when it opened', () => {
  // Seed all but 16 of the 2^24 tokens: every draw must land on one of the 16 free ones.
  const free = new Set(Array.from({ length: 16 }, (_, i) => (i * 1_000_003).toString(16).padStart(6, '0')));
  const issuer = new TokenIssuer(1 << 20);
  const taken = function* () {
    for (let n = 0; n < 1 << 20; n++) {
      const token = n.toString(16).padStart(6, '0');
      if (!free.has(token)) yield token;
    }
  };
  issuer.seed(taken());
  let issued = 0;
  for (let i = 0; i < 200; i++) {
    try {
      const token = issuer.issue(1);
      assert.ok(!/^0[0-9a-f]{5}$/.test(token) || free.has(token), token);
      issued++;
    } catch (error) {
      assert.equal((error as Error).message, 'Could not find a free profile token in 1 attempts');
    }
  }
  assert.ok(issued > 0);
});

test('the issuer forgets the oldest tokens past its capacity (the store has dropped them too)', () => {
  const issuer = new TokenIssuer(2);
  issuer.seed(['aaaaaa', 'bbbbbb', 'cccccc']);
  assert.equal(issuer.knows('aaaaaa'), false);
  assert.equal(issuer.knows('bbbbbb'), true);
  assert.equal(issuer.knows('cccccc'), true);
  const token = issuer.issue();
  assert.equal(issuer.knows(token), true);
  assert.equal(issuer.knows('bbbbbb'), false);
});

test('the issuer gives up, loudly, when no candidate is free', () => {
  assert.throws(() => new TokenIssuer(1).issue(0), { message: 'Could not find a free profile token in 0 attempts' });
});

test('the request thread remembers eight stores of issued tokens: unrecorded requests do not push out the stored ones', () => {
  assert.equal(issuedTokensKnown(10_000), 80_000);
  assert.equal(issuedTokensKnown(1_000_000), 1 << 20);
  const issuer = new TokenIssuer(issuedTokensKnown(1000));
  const stored = Array.from({ length: 1000 }, () => issuer.issue());
  // Seven thousand requests the store never saw (it was away): the stored tokens are still known.
  for (let i = 0; i < 7000; i++) issuer.issue();
  assert.equal(stored.filter((t) => issuer.knows(t)).length, 1000);
});

test('a token given back (its request not kept) no longer pushes stored tokens out', () => {
  const issuer = new TokenIssuer(100);
  const stored = Array.from({ length: 90 }, () => issuer.issue());
  // A sample keeping one request in twenty: the other nineteen give their tokens back.
  for (let i = 0; i < 1900; i++) {
    const token = issuer.issue();
    assert.equal(issuer.knows(token), true);
    issuer.forget(token);
    assert.equal(issuer.knows(token), false);
  }
  assert.equal(stored.filter((t) => issuer.knows(t)).length, 90);
  issuer.forget('zzzzzz');
  issuer.forget(stored[0]!.replace(/./, (c) => (c === '0' ? '1' : '0')));
});

test('a partitioned issuer draws only tokens of its slot; issuers of two slots never draw the same token', () => {
  const a = new TokenIssuer(50_000);
  const b = new TokenIssuer(50_000);
  a.partition(3, 4);
  b.partition(12, 4);
  const fromA = new Set(Array.from({ length: 20_000 }, () => a.issue()));
  const fromB = Array.from({ length: 20_000 }, () => b.issue());
  assert.equal(fromA.size, 20_000);
  assert.ok([...fromA].every((t) => t.startsWith('3')), 'a token of A outside its slot');
  assert.ok(fromB.every((t) => t.startsWith('c')), 'a token of B outside its slot');
  assert.equal(fromB.filter((t) => fromA.has(t)).length, 0);
  // Unpartitioned again: the whole space.
  a.partition(null, 4);
  const firsts = new Set(Array.from({ length: 2000 }, () => a.issue()[0]));
  assert.equal(firsts.size, 16);
});
