import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

test('SIGTERM lets the in-flight request finish, closes resources and exits 0', async () => {
  const child = spawn(process.execPath, [new URL('../fixtures/slow-server.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  /** Resolves with the first match of `pattern` in the child's output. */
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out);
        if (m) resolve(m);
      };
      child.stdout.on('data', check);
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
      check();
    });
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  const address = (await printed(/READY (\S+)/))[1]!;
  const pending = fetch(`${address}/slow`);
  await printed(/SLOW STARTED/);
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
