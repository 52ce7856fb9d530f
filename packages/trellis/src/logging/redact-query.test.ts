import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactPairs, redactQuery } from './redact-query.ts';
import { secretKeyMatcher } from './redact-secrets.ts';

const isSecret = secretKeyMatcher();

test('secret-named query parameters are redacted, by decoded name, each occurrence', () => {
  assert.equal(redactQuery('/books?access_token=abc&page=1', isSecret), '/books?access_token=[redacted]&page=1');
  assert.equal(redactQuery('/b?%61pi_key=k&password=1&password=2', isSecret), '/b?%61pi_key=[redacted]&password=[redacted]&password=[redacted]');
  assert.equal(redactQuery('/b?my+Token=t&x=%ZZ', isSecret), '/b?my+Token=[redacted]&x=%ZZ');
  assert.equal(redactQuery('http://h/b?secret=s#frag', isSecret), 'http://h/b?secret=[redacted]#frag');
});

test('pairs after a raw # are redacted too: the query parser reads them as parameters', () => {
  // A raw `#` in a request target (never from a browser) does not end the query for the parser.
  assert.equal(redactQuery('/books?itemsPerPage=1#&password=FRAG', isSecret), '/books?itemsPerPage=1#&password=[redacted]');
  // A fragment holding pairs (OAuth's implicit flow), with or without a query before it.
  assert.equal(redactQuery('http://h/cb#access_token=abc&state=1', isSecret), 'http://h/cb#access_token=[redacted]&state=1');
  assert.equal(redactQuery('/cb?x=1#token=t#password=p', isSecret), '/cb?x=1#token=[redacted]#password=[redacted]');
  assert.equal(redactQuery('/doc#section-2', isSecret), '/doc#section-2');
});

test('URLs without a secret come back as they were (the same string)', () => {
  const url = '/books?page=2&title=a%20b&empty=&flag';
  assert.equal(redactQuery(url, isSecret), url);
  assert.equal(redactQuery('/books', isSecret), '/books');
  assert.equal(redactQuery('/b?password=', isSecret), '/b?password=', 'an empty value hides nothing');
  assert.equal(redactQuery('/b?%E0%A4%A=1', isSecret), '/b?%E0%A4%A=1', 'a malformed escape is matched as sent');
});

test('redactPairs reports each removed value as sent', () => {
  const seen: string[] = [];
  assert.equal(redactPairs('a=1&token=t%20x', isSecret, (v, n) => seen.push(`${n}:${v}`)), 'a=1&token=[redacted]');
  assert.deepEqual(seen, ['token:t%20x']);
});

test('the userinfo of an absolute URL is a credential: a password, or a lone name (a token), is redacted', () => {
  const seen: string[] = [];
  assert.equal(redactQuery('http://ann:pw-1234@a.test/books?page=2', isSecret, (v) => seen.push(v)), 'http://ann:[redacted]@a.test/books?page=2');
  assert.equal(redactQuery('https://ghp_TOKEN123@a.test/x', isSecret, (v) => seen.push(v)), 'https://[redacted]@a.test/x');
  assert.deepEqual(seen, ['pw-1234', 'ghp_TOKEN123']);
  assert.equal(redactQuery('http://a.test/path@x?y=1', isSecret), 'http://a.test/path@x?y=1', 'an @ in the path is not userinfo');
  assert.equal(redactQuery('/books?x=a@b', isSecret), '/books?x=a@b');
  assert.equal(redactQuery('http://ann:@a.test/', isSecret), 'http://ann:@a.test/');
});

test('a removed value is removed wherever else it stands in the URL; one of under four characters is not hunted', () => {
  assert.equal(redactQuery('/books/2?password=S3cr3t&echo=S3cr3t', isSecret), '/books/2?password=[redacted]&echo=[redacted]');
  assert.equal(redactQuery('/b?token=abc&q=abc', isSecret), '/b?token=[redacted]&q=abc');
  const heard: string[] = [];
  redactQuery('/b?password=S3cr3t&echo=S3cr3t', isSecret, (value) => heard.push(value));
  assert.deepEqual(heard, ['S3cr3t']);
});

test('a JWT is redacted under any name, and heard', () => {
  const jwt = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"2"}').toString('base64url')}.c2lnbmF0dXJl`;
  const heard: string[] = [];
  assert.equal(redactQuery(`/books/2?jwt=${jwt}&page=2`, isSecret, (value, name) => heard.push(`${name}=${value}`)), '/books/2?jwt=[redacted]&page=2');
  assert.deepEqual(heard, [`jwt=${jwt}`]);
  assert.equal(redactQuery(`http://h/${jwt}/x`, isSecret), 'http://h/[redacted]/x');
});
