import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import fc from 'fast-check';
import { headerObject, wireHeaderBlock, withResponseHeaders } from './wire-headers.ts';
import type { RequestSnapshot } from './profiled-request.ts';

const BLOCK = 'HTTP/1.1 200 OK\r\nset-cookie: a=1\r\nset-cookie: b=2\r\nx-n: 5\r\nContent-Type: text/plain; charset=utf-8\r\nlink: <http://x/a:b>; rel="next"\r\nDate: Sat, 28 Nov 2026 20:03:23 GMT\r\n\r\n';

test('a block reads as getHeaders() gives the fields: names lower-cased, a repeated field as an array', () => {
  assert.deepEqual({ ...headerObject(BLOCK) }, {
    'set-cookie': ['a=1', 'b=2'],
    'x-n': '5',
    'content-type': 'text/plain; charset=utf-8',
    // The first colon ends the name; the rest is the value, colons and all.
    link: '<http://x/a:b>; rel="next"',
    date: 'Sat, 28 Nov 2026 20:03:23 GMT',
  });
});

test('odd blocks: none but a status line, no final empty line, a field named __proto__, spaces kept', () => {
  assert.deepEqual({ ...headerObject('HTTP/1.1 204 No Content\r\n\r\n') }, {});
  assert.deepEqual({ ...headerObject('HTTP/1.1 200 OK\r\nx-a: 1') }, { 'x-a': '1' });
  const proto = headerObject('HTTP/1.1 200 OK\r\n__proto__: x\r\n__proto__: y\r\nconstructor: z\r\nx-b:  two  \r\n\r\n');
  // Own properties, the prototype untouched: JSON writes them as any other field.
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value, ['x', 'y']);
  assert.equal(proto.constructor, 'z');
  assert.equal(JSON.stringify(proto), '{"__proto__":["x","y"],"constructor":"z","x-b":" two  "}');
  // Node writes `name: value`: only that one space goes.
  assert.equal(proto['x-b'], ' two  ');
  assert.deepEqual({ ...headerObject('') }, {});
  // A line without a colon (none Node writes) is passed over.
  assert.deepEqual({ ...headerObject('HTTP/1.1 200 OK\r\nnonsense\r\nx-c: 3\r\n\r\n') }, { 'x-c': '3' });
});

test('the block Node wrote for a response is the one kept, under inject and on a socket', async () => {
  const app = Fastify();
  const blocks: (string | null)[] = [];
  app.get('/', (_request, reply) => {
    reply.header('set-cookie', ['a=1', 'b=2']).header('x-n', 5).send({ ok: 1 });
  });
  app.addHook('onResponse', (_request, reply, done) => {
    blocks.push(wireHeaderBlock(reply.raw));
    done();
  });
  try {
    await app.inject({ url: '/' });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(url);
    await response.text();
    assert.equal(blocks.length, 2);
    for (const block of blocks) {
      assert.ok(block?.startsWith('HTTP/1.1 200 OK\r\n'), String(block));
      const headers = headerObject(block!);
      assert.deepEqual(headers['set-cookie'], ['a=1', 'b=2']);
      assert.equal(headers['x-n'], '5');
      assert.equal(headers['content-length'], '8');
      assert.equal(headers.connection, 'keep-alive');
      assert.match(String(headers.date), /GMT$/);
    }
  } finally {
    await app.close();
  }
});

test('no block, nothing kept: a response not yet written, or one with no such field (HTTP/2)', () => {
  assert.equal(wireHeaderBlock({ _header: null }), null);
  assert.equal(wireHeaderBlock({}), null);
  assert.equal(wireHeaderBlock({ _header: 'not a block' }), null);
});

test('a snapshot with a block is read into headers once, without the block; others are left as they are', () => {
  const base = { response: { statusCode: 200, headers: {}, payload: '', size: 0, wire: BLOCK } } as unknown as RequestSnapshot;
  const read = withResponseHeaders(base);
  assert.equal(read.response!.wire, undefined);
  assert.deepEqual(read.response!.headers['set-cookie'], ['a=1', 'b=2']);
  const plain = { response: { statusCode: 200, headers: { a: '1' }, payload: '', size: 0 } } as unknown as RequestSnapshot;
  assert.equal(withResponseHeaders(plain), plain);
});

test('generated: every header Node writes is read back with its value', async () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/).filter((n) => !['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'content-type'].includes(n));
  const value = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,20}[\x21-\x7e])?$/);
  await fc.assert(
    fc.asyncProperty(fc.dictionary(name, fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 3 })), { maxKeys: 6 }), async (fields) => {
      const app = Fastify();
      let block: string | null = null;
      app.get('/', (_request, reply) => {
        for (const [n, v] of Object.entries(fields)) reply.header(n, v);
        reply.send('x');
      });
      app.addHook('onResponse', (_request, reply, done) => {
        block = wireHeaderBlock(reply.raw);
        done();
      });
      await app.inject({ url: '/' });
      await app.close();
      const headers = headerObject(block!);
      for (const [n, v] of Object.entries(fields)) assert.deepEqual(headers[n], v, n);
    }),
    { numRuns: 60 },
  );
});
