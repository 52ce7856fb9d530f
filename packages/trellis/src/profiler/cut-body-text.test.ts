import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutBodyText, withCutBodyText } from './cut-body-text.ts';
import { cutLargeBody } from './large-body.ts';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';
import type { RequestSnapshot } from './profiled-request.ts';

const snapshotWith = (body: unknown, contentLength: number) => ({ token: 'a1b2c3', request: { body, bodyNote: null, headers: { 'content-length': String(contentLength) } } }) as unknown as RequestSnapshot;

test('a cut body reads back as the text it was cut from; collectors where the bytes are see that text', () => {
  const text = `{"note": "${'é'.repeat(6000)}"}`;
  const cut = cutLargeBody(snapshotWith(text, Buffer.byteLength(text)), 1024, DEFAULT_SECRET_KEYS);
  assert.ok(cut.request.body instanceof Uint8Array);
  const read = withCutBodyText(cut);
  assert.equal(typeof read.request.body, 'string');
  assert.equal(read.request.body, cutBodyText(cut.request.body));
  // A JSON-looking text body is redacted as JSON, so kept indented.
  assert.ok((read.request.body as string).startsWith(`{\n  "note": "${'é'.repeat(100)}`));
  assert.equal(Buffer.byteLength(read.request.body as string), (cut.request.body as Uint8Array).byteLength);
  assert.equal(read.token, 'a1b2c3');
});

test('any other body is left as it is: a parsed one, a string, none', () => {
  for (const body of [{ a: 1 }, 'plain', undefined]) {
    const snapshot = snapshotWith(body, 10);
    assert.equal(withCutBodyText(snapshot), snapshot);
  }
  assert.equal(cutBodyText({ a: 1 }), null);
  assert.equal(cutBodyText('text'), 'text');
});
