import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpProfileSource } from './http-profile-source.ts';

test('an answer that does not end is cut at the cap with an exact message, never read whole', async () => {
  let sent = 0;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent < 64 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
      if (sent < 64 * 1024 * 1024) response.once('drain', pump);
      else response.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await assert.rejects(httpProfileSource(origin, 10_000, 1024 * 1024).read('abc123'), { message: `${origin} sent more than 1 MB in one answer: not a Trellis profiler's.` });
    assert.ok(sent < 16 * 1024 * 1024, `the server got to send ${sent} bytes before the client stopped reading`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
