import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenIssuer, isToken, randomToken } from './token.ts';

test('tokens are 6 lowercase hex characters', () => {
  for (let i = 0; i < 1000; i++) assert.match(randomToken(), /^[0-9a-f]{6}$/);
  assert.equal(isToken('a1b2c3'), true);
  assert.equal(isToken('A1B2C3'), false);
  assert.equal(isToken('latest'), false);
  assert.equal(isToken('a1b2c3d'), false);
});

test('the issuer redraws a token the store already holds', async () => {
  const asked: string[] = [];
  let clashes = 3;
  const issuer = new TokenIssuer(async (token) => {
    asked.push(token);
    return clashes-- > 0;
  });
  const token = await issuer.issue();
  assert.equal(asked.length, 4);
  assert.equal(asked.at(-1), token);
});

test('the issuer never hands out a token twice before it is written', async () => {
  const issuer = new TokenIssuer(async () => false);
  const tokens = new Set<string>();
  for (let i = 0; i < 5000; i++) tokens.add(i % 2 ? await issuer.issue() : issuer.issueNow());
  assert.equal(tokens.size, 5000);
});

test('the issuer gives up, loudly, when every candidate is taken', async () => {
  const issuer = new TokenIssuer(async () => true);
  await assert.rejects(issuer.issue(4), { message: 'Could not find a free profile token in 4 attempts' });
});

test('a synchronously drawn token is replaced when the store already has it', async () => {
  const stored = new Set<string>();
  const issuer = new TokenIssuer(async (token) => stored.has(token));
  const drawn = issuer.issueNow();
  assert.equal(await issuer.confirm(drawn), drawn);
  stored.add(drawn);
  const replaced = await issuer.confirm(drawn);
  assert.notEqual(replaced, drawn);
  assert.match(replaced, /^[0-9a-f]{6}$/);
});
