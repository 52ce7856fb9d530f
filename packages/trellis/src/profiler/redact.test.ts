import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redaction } from './redact.ts';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';

test('credential headers are always redacted, others by key', () => {
  const r = new Redaction(['password']);
  assert.deepEqual(r.headers({ Authorization: 'Bearer abcd1234', cookie: 'sid=xyz987', 'set-cookie': ['a=1234567'], 'proxy-authorization': 'Basic qwerty', accept: 'text/html' }), {
    Authorization: '[redacted]',
    cookie: '[redacted]',
    'set-cookie': '[redacted]',
    'proxy-authorization': '[redacted]',
    accept: 'text/html',
  });
});

test('query values are redacted in URLs, and secrets are scrubbed from any text afterwards', () => {
  const r = new Redaction(DEFAULT_SECRET_KEYS);
  assert.equal(r.url('/login?user=ann&password=s3cr%20et!&api_key=k-123456'), '/login?user=ann&password=[redacted]&api_key=[redacted]');
  r.headers({ authorization: 'Bearer tok-abcdef' });
  assert.deepEqual(r.scrub({ message: 'GET /login?password=s3cr%20et! by s3cr et!', nested: ['key k-123456', 'tok-abcdef'] }), {
    message: 'GET /login?password=[redacted] by [redacted]',
    nested: ['key [redacted]', '[redacted]'],
  });
});

test('body fields are redacted deeply, including whole secret objects', () => {
  const r = new Redaction(['password', 'secret', 'credential']);
  assert.deepEqual(r.fields({ name: 'a', password: 'hunter22', credentials: { user: 'bob', pin: 98765 }, list: [{ client_secret: 'zzz999' }] }), {
    name: 'a',
    password: '[redacted]',
    credentials: '[redacted]',
    list: [{ client_secret: '[redacted]' }],
  });
  assert.equal(r.scrub('bob typed 98765 and hunter22'), 'bob typed [redacted] and [redacted]');
});

test('a JSON text may name a secret only through a key, never through a value', () => {
  const r = new Redaction(DEFAULT_SECRET_KEYS);
  assert.equal(r.mayNameSecretInJson('{"title":"An old secret.","token_count":3}'), true);
  assert.equal(r.mayNameSecretInJson('{"nested":{"Client_Secret" : "x"}}'), true);
  assert.equal(r.mayNameSecretInJson('{"a\\"password\\"b":1}'), true);
  assert.equal(r.mayNameSecretInJson('{"title":"An old secret.","note":"a \\"token\\", not a key"}'), false);
  assert.equal(r.mayNameSecretInJson('{"title":"Dune","price":13.41}'), false);
});

test('the profiler\'s own headers are shown, not taken for credentials', () => {
  const r = new Redaction(DEFAULT_SECRET_KEYS);
  assert.deepEqual(r.headers({ 'x-debug-token': 'a1b2c3', 'X-Debug-Token-Link': 'http://h/_profiler/a1b2c3', 'x-auth-token': 'abcdef12' }), {
    'x-debug-token': 'a1b2c3',
    'X-Debug-Token-Link': 'http://h/_profiler/a1b2c3',
    'x-auth-token': '[redacted]',
  });
  assert.equal(r.scrub('token a1b2c3'), 'token a1b2c3');
});

test('a text body is redacted as JSON when it parses, else as name=value pairs (forms, text/plain)', () => {
  const r = new Redaction(DEFAULT_SECRET_KEYS);
  assert.equal(r.text('email=a%40b.c&password=hunter22&remember=1'), 'email=a%40b.c&password=[redacted]&remember=1');
  assert.equal(r.text('user=ann\r\npass%77ord=line-pass\r\nnote=x'), 'user=ann\r\npass%77ord=[redacted]\r\nnote=x');
  assert.equal(r.text(' {"api_key":"k-998877","n":1}'), '{\n  "api_key": "[redacted]",\n  "n": 1\n}');
  assert.equal(r.text('just words, no secret'), 'just words, no secret');
  assert.equal(r.scrub('echo: hunter22, line-pass, k-998877'), 'echo: [redacted], [redacted], [redacted]');
});

test('text of any other shape has the value after a secret-named key replaced where it stands, whatever the content type said', () => {
  const r = new Redaction(DEFAULT_SECRET_KEYS);
  // JSON cut short or malformed (sent as text/plain): the same field redacted as in JSON.
  assert.equal(r.text('{"email":"a","password":"TXTSECRET123"'), '{"email":"a","password":"[redacted]"');
  assert.equal(r.text('{"password":"unterminated'), '{"password":"[redacted]');
  assert.equal(r.text("{'Api_Key': 'k-1234', 'n': 1,}"), "{'Api_Key': '[redacted]', 'n': 1,}");
  // key: value lines (YAML, headers pasted in a body), any case; escaped quotes stay inside the value.
  // A line with `=` is a form pair first: its value runs to the next `&`.
  assert.equal(r.text('user: ann\nPassword: hunter2 \nsession_id=abc; path=/'), 'user: ann\nPassword: [redacted] \nsession_id=[redacted]');
  assert.equal(r.text('session: s-42, secret:"q u"'), 'session: [redacted], secret:"[redacted]"');
  assert.equal(r.text('{"token":"a\\"b", "x": 1'), '{"token":"[redacted]", "x": 1');
  assert.equal(r.text('a token: nothing after it'), 'a token: [redacted] after it', 'prose that reads as a key and a value is redacted: more, never less');
  assert.equal(r.text('no secret here: plain words'), 'no secret here: plain words');
  // What was removed is scrubbed from the rest of the profile too.
  assert.equal(r.scrub('seen TXTSECRET123 and hunter2 and k-1234'), 'seen [redacted] and [redacted] and [redacted]');
});

test('past the depth limit a subtree is redacted whole, never kept', () => {
  let deep: unknown = { password: 'deep-secret', plain: 'x' };
  for (let i = 0; i < 40; i++) deep = i % 2 ? { level: deep } : [deep];
  const out = JSON.stringify(new Redaction(DEFAULT_SECRET_KEYS).fields({ body: deep }));
  assert.equal(out.includes('deep-secret'), false);
  assert.equal(out.includes('"[redacted]"'), true);
  // Shallow data is kept as it was.
  assert.deepEqual(new Redaction(DEFAULT_SECRET_KEYS).fields({ a: [{ b: 1 }] }), { a: [{ b: 1 }] });
});

test("a Set-Cookie's value is a secret, its attributes are not", () => {
  const redaction = new Redaction(DEFAULT_SECRET_KEYS);
  redaction.headers({ 'set-cookie': ['sid=abc123secret; Path=/; HttpOnly; SameSite=Lax'], cookie: 'a=first-cookie-secret; b=second-cookie-secret' });
  assert.equal(redaction.scrub('HttpOnly SameSite=Lax Path=/ abc123secret second-cookie-secret'), 'HttpOnly SameSite=Lax Path=/ [redacted] [redacted]');
});

test('free text is scanned in one pass: a megabyte of any shape is redacted without backtracking for minutes', { timeout: 30_000 }, () => {
  // A large text body is redacted on the request thread (large-body.ts): a pattern that backtracks
  // over runs of key characters took 1.8 s for 32 KB of letters, and grew with the square.
  const M = 1 << 20;
  const shapes = ['a'.repeat(M), 'a:'.repeat(M / 2), '"'.repeat(M), 'a:"'.repeat(M / 3), 'password:"\\'.repeat(M / 11), '.-'.repeat(M / 2), `password${' '.repeat(M)}`];
  for (const text of shapes) {
    const out = new Redaction(DEFAULT_SECRET_KEYS).text(text);
    assert.ok(out.length >= 16, `redacted text of ${text.slice(0, 12)}…`);
  }
  assert.equal(new Redaction(DEFAULT_SECRET_KEYS).text(`password${' '.repeat(1000)}: x`), `password${' '.repeat(1000)}: [redacted]`);
});

test('a secret-named object that describes (an OpenAPI schema) has its words left to the rest of the profile', () => {
  const r = new Redaction(DEFAULT_SECRET_KEYS);
  assert.deepEqual(r.fields({ properties: { password: { type: 'string', format: 'password', minLength: 8 } }, in: 'header' }), { properties: { password: '[redacted]' }, in: 'header' });
  // Its words are vocabulary, not credentials: nothing else loses them, no key is renamed.
  assert.deepEqual(r.scrub({ headers: { 'content-type': 'application/json' }, note: 'a string in a header' }), { headers: { 'content-type': 'application/json' }, note: 'a string in a header' });
  // A leaf with a digit or a sign is hunted as before, and a key that is a secret whole is replaced.
  r.fields({ credentials: { user: 'bob', pin: 98765, phrase: 'open-sesame!' } });
  assert.deepEqual(r.scrub({ 98765: 'pin 98765', text: 'said open-sesame!' }), { '[redacted]': 'pin [redacted]', text: 'said [redacted]' });
});
