import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsEncodedJwt, holdsJwt, replaceEncodedJwts, replaceJwts } from './jwt-like.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const JWT = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '2', roles: ['ROLE_USER'], exp: 1_900_000_000 })}.c2lnbmF0dXJlLWJ5dGVzLWhlcmU`;

test('a compact JWT is found and replaced wherever it stands, and each is heard', () => {
  assert.ok(holdsJwt(JWT));
  const heard: string[] = [];
  assert.equal(replaceJwts(`/books/2?q=${JWT}&page=2`, (t) => heard.push(t)), '/books/2?q=[redacted]&page=2');
  assert.deepEqual(heard, [JWT]);
  assert.equal(replaceJwts(`a ${JWT} b ${JWT}`), 'a [redacted] b [redacted]');
  // alg "none": the signature is empty.
  const unsigned = `${b64({ alg: 'none' })}.${b64({ sub: '1' })}.`;
  assert.equal(replaceJwts(`t=${unsigned}`), 't=[redacted]');
});

test('text with no JWT is returned as it is, "eyJ" alone or one segment included', () => {
  for (const text of ['', 'plain text', 'eyJ', `${b64({ a: 1 })}`, 'eyJhbGciOiJIUzI1NiJ9.notjson.sig', 'aaaa.bbbb.cccc']) {
    assert.equal(holdsJwt(text), false, text);
    assert.equal(replaceJwts(text), text);
  }
});

test('linear on text made to make a pattern backtrack: many "eyJ", few dots (a quadratic scan would not end)', { timeout: 20_000 }, () => {
  const text = `eyJ${'a'.repeat(200_000)}.eyJ${'b'.repeat(200_000)}`;
  assert.equal(holdsJwt(text), false);
  assert.equal(replaceJwts(`${text}.`), '[redacted]');
  const hostile = `${'eyJ'.repeat(300)}.eyJ${'a'.repeat(5000)} `.repeat(200);
  assert.equal(holdsJwt(hostile), false);
  assert.equal(holdsJwt(`${'eyJ'.repeat(300_000)}`), false);
});

test('a token preceded by other characters of its alphabet, or two tokens in one run', () => {
  assert.equal(replaceJwts(`xx${JWT}`), 'xx[redacted]');
  assert.equal(replaceJwts(`${JWT}.${JWT}`), '[redacted].[redacted]');
  assert.equal(replaceJwts(`a=${JWT}&b=1`), 'a=[redacted]&b=1');
});

test('percent-encoded JWTs are found by what they decode to, and the run is replaced whole', () => {
  const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.c2lnbmF0dXJlLXF1ZXJ5LWI';
  const escapedE = `%65${token.slice(1)}`;
  const escapedDots = token.replaceAll('.', '%2E');
  assert.equal(replaceEncodedJwts(`/books?q=${escapedE}&page=2`), '/books?q=[redacted]&page=2');
  assert.equal(replaceEncodedJwts(`/books/${escapedDots}`), '/books/[redacted]');
  assert.equal(replaceEncodedJwts(`/books?q=see%20${escapedE}`), '/books?q=[redacted]');
  assert.equal(holdsEncodedJwt(`/x?q=${escapedDots}`), true);
  // Ordinary escapes, malformed ones and plain JWTs are left to the other scans.
  for (const text of ['/books?title=caf%C3%A9&page=2', '/x?q=%E0%A4%A', `/x?q=${token}`, '/x?q=%65yJhYmMi']) {
    assert.equal(replaceEncodedJwts(text), text, text);
  }
});

test('a long run without "%" beside an escape is left as it is (the scan splits; a pattern backtracked quadratically here)', () => {
  const text = `/x?a=${'a'.repeat(16_000)}&b=%41/${'b'.repeat(16_000)}%`;
  assert.equal(replaceEncodedJwts(text), text);
  assert.equal(holdsEncodedJwt(text), false);
});
