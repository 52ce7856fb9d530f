/**
 * The ceiling: bare node:http answering each request with bytes captured from the server the
 * scenario copies (BENCH_FIXTURES names a JSON file of ResponseFixture). No routing library, no
 * hooks, no logging: what Node itself costs for the same response.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { announceUrl } from '../lib/server-process.ts';
import type { ResponseFixture } from '../lib/response-fixture.ts';

const fixtures: ResponseFixture[] = process.env.BENCH_FIXTURES ? JSON.parse(readFileSync(process.env.BENCH_FIXTURES, 'utf8')) : [];
const byKey = new Map(fixtures.map((f) => [`${f.method} ${f.path}`, { ...f, bytes: Buffer.from(f.body, 'base64') }]));

const server = http.createServer((req, res) => {
  const f = byKey.get(`${req.method} ${req.url}`);
  if (!f) {
    res.writeHead(404, { 'content-length': '0' }).end();
    return;
  }
  // Drain any request body before answering so keep-alive connections stay usable.
  req.resume();
  req.on('end', () => {
    res.writeHead(f.status, { ...f.headers, 'content-length': String(f.bytes.length) });
    res.end(f.bytes);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => announceUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
