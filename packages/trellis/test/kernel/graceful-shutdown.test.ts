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

// A second signal with no listener left (process.once) killed the process at once: the request in
// flight was reset and nothing queued was stored. Ctrl-C on `npm start` sends two SIGINTs (the
// terminal's, to the process group, and the one npm forwards); a supervisor may repeat SIGTERM.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} twice still lets the in-flight request finish and exits 0`, async () => {
    const child = spawn(process.execPath, [new URL('../fixtures/slow-server.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    const printed = async (pattern: RegExp) => {
      while (!pattern.test(out)) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited early: ${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return pattern.exec(out)!;
    };
    const address = (await printed(/READY (\S+)/))[1]!;
    const pending = fetch(`${address}/slow`);
    await printed(/SLOW STARTED/);
    const exited = once(child, 'exit');
    child.kill(signal);
    await printed(/shutting down/);
    child.kill(signal);
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { done: true });
    const [code, killedBy] = await exited;
    assert.equal(killedBy, null, out);
    assert.equal(code, 0, out);
    assert.match(out, new RegExp(`Received ${signal} while shutting down; still waiting for requests in flight`));
    assert.match(out, /closed resources/);
  });
}
