import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { cutLargeBody, isOwnCut } from './large-body.ts';
import { cutBodyText } from './cut-body-text.ts';
import { DEFAULT_SECRET_KEYS } from '../logging/redact-secrets.ts';
import type { RequestSnapshot } from './profiled-request.ts';

function snapshotWith(body: unknown, contentLength: number): RequestSnapshot {
  return { request: { body, bodyNote: null, headers: { 'content-length': String(contentLength) } } } as unknown as RequestSnapshot;
}

test('a body over 4 × the limit is redacted, cut to the limit and noted with its size; its secrets travel along', () => {
  const body = { password: 'hunter2-secret', items: Array.from({ length: 5000 }, (_, i) => ({ i, note: 'x'.repeat(20) })) };
  const text = JSON.stringify(body);
  const out = cutLargeBody(snapshotWith(body, text.length), 1024, DEFAULT_SECRET_KEYS);
  const bytes = out.request.body as Uint8Array;
  assert.ok(bytes instanceof Uint8Array && isOwnCut(bytes), 'UTF-8 bytes this module cut');
  assert.ok(bytes.byteLength <= 1024 && bytes.byteLength >= 1018, `${bytes.byteLength} bytes`);
  const kept = cutBodyText(bytes)!;
  assert.ok(JSON.stringify(JSON.parse(JSON.stringify({ ...body, password: '[redacted]' })), null, 2).startsWith(kept), 'a prefix of the redacted body as JSON');
  assert.equal(kept.includes('hunter2-secret'), false);
  assert.match(kept, /"password": "\[redacted\]"/);
  assert.equal(out.request.bodyNote?.kind, 'cut');
  assert.equal((out.request.bodyNote as { size: number }).size, text.length, 'the size as received (Content-Length)');
  assert.ok(out.secrets?.includes('hunter2-secret'));
});

test('smaller bodies, and bodies already noted, are left to the profiler thread', () => {
  const small = snapshotWith({ a: 1 }, 4000);
  assert.equal(cutLargeBody(small, 1024, DEFAULT_SECRET_KEYS), small);
  const unknownLength = snapshotWith({ a: 1 }, Number.NaN);
  assert.equal(cutLargeBody(unknownLength, 1024, DEFAULT_SECRET_KEYS), unknownLength);
});

test('an ASCII body is cut at exactly the limit; a multi-byte one at the last whole character within it', () => {
  const cut = (body: string, length: number, max: number) => cutBodyText(cutLargeBody(snapshotWith(body, length), max, DEFAULT_SECRET_KEYS).request.body);
  assert.equal(cut('a'.repeat(10_000), 10_000, 1024), 'a'.repeat(1024));
  // Two bytes each in UTF-8, after one ASCII byte: 511 of them fit 1,023 bytes, a 512th would not.
  const accented = cut(`x${'é'.repeat(5000)}`, 10_001, 1024);
  assert.equal(accented, `x${'é'.repeat(511)}`);
  assert.equal(Buffer.byteLength(accented!), 1023);
  // A character beyond the BMP (four bytes, two UTF-16 units) is kept whole or not at all.
  assert.equal(cut('😀'.repeat(3000), 12_000, 1026), '😀'.repeat(256));
  // A JSON body: the same at a whole character of its encoding.
  assert.equal(cutBodyText(cutLargeBody(snapshotWith({ t: 'é'.repeat(5000) }, 10_011), 1024, DEFAULT_SECRET_KEYS).request.body), `{\n  "t": "${'é'.repeat(507)}`);
});

test('the kept beginning is bytes of its own, outside the heap: fifty cut 900 KB text bodies do not keep 45 MB alive', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: RequestSnapshot[] = [];
  for (let i = 0; i < 50; i++) {
    // Each body its own string (a repeat of a shared one would be one allocation).
    kept.push(cutLargeBody(snapshotWith(`${i}${'t'.repeat(900 * 1024)}`, 900 * 1024 + 2), 64 * 1024, DEFAULT_SECRET_KEYS));
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.equal(kept.length, 50);
  const last = kept[49]!.request.body as Uint8Array;
  assert.equal(last.byteLength, 64 * 1024);
  assert.equal(last.buffer.byteLength, 64 * 1024, 'a buffer of its own, not a view of a larger one');
  assert.ok(grown < 15 * 2 ** 20, `${(grown / 2 ** 20).toFixed(1)} MB kept for 50 × 64 KB`);
});
