import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

test('SIGTERM lets the in-flight request finish, closes resources and exits 0', async () => {
  const child = spawn(process.execPath, [new URL('../fixtures/slow-server.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  const address = await ready;
  const pending = fetch(`${address}/slow`);
  await new Promise((r) => setTimeout(r, 150));
  child.kill('SIGTERM');
  const res = await pending;
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { done: true });
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
  assert.match(out, /Received SIGTERM, shutting down/);
  assert.match(out, /closed resources/);
  await assert.rejects(fetch(`${address}/slow`), 'no longer accepting');
});
