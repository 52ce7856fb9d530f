// The client address behind trusted proxies: only IP literals are believed, compared as addresses;
// a trusted header naming anything else is a 400 with the exact message, never a guess.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

async function build(env: Record<string, string>): Promise<FastifyInstance> {
  const app = await createApp({ config: testConfig({ PROFILER: '0', ...env }), tls: null });
  app.get('/ip', async (request) => ({ ip: request.clientIp }));
  await app.ready();
  return app;
}

describe('client address behind a trusted proxy', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await build({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' });
  });
  after(() => app.close());
  const ip = async (headers: Record<string, string | string[]>) => {
    const res = await app.inject({ url: '/ip', headers });
    return res.statusCode === 200 ? res.json().ip : `${res.statusCode} ${res.json().detail}`;
  };

  test('IP literals are believed: v4, v6, v4-mapped, the nearest untrusted from the right', async () => {
    assert.equal(await ip({ 'x-forwarded-for': '198.51.100.7' }), '198.51.100.7');
    assert.equal(await ip({ 'x-forwarded-for': '2001:db8::7' }), '2001:db8::7');
    assert.equal(await ip({ 'x-forwarded-for': '::ffff:198.51.100.7' }), '198.51.100.7');
    // A client that sends its own X-Forwarded-For gets the real address appended by the proxy.
    assert.equal(await ip({ 'x-forwarded-for': '127.0.0.1, 198.51.100.7' }), '198.51.100.7');
    assert.equal(await ip({ 'x-forwarded-for': '198.51.100.7, 10.1.2.3' }), '198.51.100.7', 'trusted hops are skipped');
    assert.equal(await ip({ 'x-forwarded-for': ['198.51.100.7', '10.1.2.3'] }), '198.51.100.7', 'repeated headers are one list');
    assert.equal(await ip({ forwarded: 'for="[2001:db8::9]:4711"' }), '2001:db8::9');
    assert.equal(await ip({ forwarded: 'for=198.51.100.8:443;proto=https' }), '198.51.100.8');
    assert.equal(await ip({ forwarded: 'proto=https' }), '127.0.0.1', 'no for=: the proxy itself');
    assert.equal(await ip({}), '127.0.0.1', 'no header: the proxy itself');
  });

  test('anything else in a trusted header is a 400 naming the header and the value', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'x-forwarded-for': '<script>alert(1)</script>' }, 'The trusted "X-Forwarded-For" header names a client that is not an IP address: "<script>alert(1)</script>".'],
      [{ 'x-forwarded-for': '127.evil.example' }, 'The trusted "X-Forwarded-For" header names a client that is not an IP address: "127.evil.example".'],
      [{ 'x-forwarded-for': '127.0.0.1:80' }, 'The trusted "X-Forwarded-For" header names a client that is not an IP address: "127.0.0.1:80".'],
      [{ 'x-forwarded-for': '' }, 'The trusted "X-Forwarded-For" header names a client that is not an IP address: "".'],
      [{ 'x-forwarded-for': ' , ' }, 'The trusted "X-Forwarded-For" header names a client that is not an IP address: ",".'],
      [{ 'x-forwarded-for': '198.51.100.7, localhost' }, 'The trusted "X-Forwarded-For" header names a client that is not an IP address: "localhost".'],
      [{ forwarded: 'for=unknown' }, 'The trusted "Forwarded" header names a client that is not an IP address: "unknown".'],
      [{ forwarded: 'for=_gazonk' }, 'The trusted "Forwarded" header names a client that is not an IP address: "_gazonk".'],
      [{ forwarded: 'for="[::1"' }, 'The trusted "Forwarded" header names a client that is not an IP address: ""[::1"".'],
    ];
    for (const [headers, detail] of cases) {
      const res = await app.inject({ url: '/ip', headers });
      assert.equal(res.statusCode, 400, JSON.stringify(headers));
      assert.equal(res.json().detail, detail);
    }
    const long = await app.inject({ url: '/ip', headers: { 'x-forwarded-for': 'x'.repeat(5000) } });
    assert.equal(long.json().detail, `The trusted "X-Forwarded-For" header names a client that is not an IP address: "${'x'.repeat(100)}".`, 'the value is cut');
  });

  test('from an untrusted peer the headers are ignored, whatever they hold', async () => {
    const direct = await build({});
    try {
      for (const value of ['<script>', '127.0.0.1', '']) {
        const res = await direct.inject({ url: '/ip', remoteAddress: '192.0.2.9', headers: { 'x-forwarded-for': value } });
        assert.deepEqual(res.json(), { ip: '192.0.2.9' });
      }
    } finally {
      await direct.close();
    }
  });
});
