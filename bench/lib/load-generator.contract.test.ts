import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadGenerator } from './load-generator.ts';
import { AutocannonLoadGenerator } from './autocannon-load-generator.ts';
import { WrkLoadGenerator } from './wrk-load-generator.ts';

/** One contract, every load generator: short runs against a loopback server that records what it saw. */
const generators: Array<[string, () => Promise<LoadGenerator | string>]> = [
  ['autocannon', async () => new AutocannonLoadGenerator()],
  ['wrk', async () => ((await WrkLoadGenerator.available()) ? new WrkLoadGenerator() : 'wrk is not installed at /usr/bin/wrk')],
];

let server: http.Server;
let baseUrl: string;
const seen: Array<{ method: string; url: string; auth: string | undefined; body: string }> = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      if (seen.length < 10) seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

for (const [name, make] of generators) {
  describe(`LoadGenerator contract: ${name}`, () => {
    test('sends the request as given and reports rate and latency, whatever the status', async (t) => {
      const generator = await make();
      if (typeof generator === 'string') return t.skip(generator);
      seen.length = 0;
      const result = await generator.run(
        baseUrl,
        { method: 'POST', path: '/things?x=1', headers: { authorization: 'Bearer abc', 'content-type': 'application/json' }, body: '{"a":1}' },
        { durationSeconds: 1, connections: 2 },
      );
      assert.ok(result.requests > 0, `completed ${result.requests} requests`);
      assert.ok(result.requestsPerSecond > 0);
      // autocannon histograms whole milliseconds, so a fast loopback p50 may read 0.
      assert.ok(result.p50Ms >= 0 && result.p50Ms <= result.p99Ms, `0 ≤ p50 ${result.p50Ms} ≤ p99 ${result.p99Ms}`);
      assert.equal(result.errors, 0);
      assert.deepEqual(seen[0], { method: 'POST', url: '/things?x=1', auth: 'Bearer abc', body: '{"a":1}' });
    });

    test('stops after a request count when given one', async (t) => {
      const generator = await make();
      if (typeof generator === 'string') return t.skip(generator);
      const result = await generator.run(baseUrl, { method: 'GET', path: '/' }, { durationSeconds: 30, connections: 2, requests: 500 });
      // In-flight requests on the other connections may still complete.
      assert.ok(result.requests >= 500 && result.requests <= 510, `completed ${result.requests} requests`);
    });
  });
}
