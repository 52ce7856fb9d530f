import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckAdmission } from './check-admission.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

test('at most `remaining` checks at once; the next waits for one to end and asks again', async () => {
  const admission = new CheckAdmission(1000);
  let remaining = 2;
  const ask = async () => remaining;
  const [a, b] = await Promise.all([admission.admit('k', ask), admission.admit('k', ask)]);
  assert.equal(admission.running('k'), 2);
  let third: (() => void) | null | undefined;
  void admission.admit('k', ask).then((release) => (third = release));
  await tick();
  assert.equal(third, undefined, 'waits while two run');
  remaining = 1; // the first failed: one place left for the two that remain
  a!();
  await tick();
  assert.equal(third, undefined, 'one still runs and one place is left: it waits on');
  b!();
  await tick();
  assert.equal(typeof third, 'function');
  third!();
  third!();
  assert.equal(admission.running('k'), 0, 'a release counts once');
  assert.equal(admission.running('other'), 0);
});

test('a failure budget spent refuses at once; no place within the wait is null', async () => {
  const admission = new CheckAdmission(30);
  await assert.rejects(admission.admit('k', async () => Promise.reject(new Error('over'))), /over/);
  const held = await admission.admit('k', async () => 1);
  const started = performance.now();
  assert.equal(await admission.admit('k', async () => 1), null);
  assert.ok(performance.now() - started >= 25);
  held!();
  assert.equal(typeof (await admission.admit('k', async () => 1)), 'function');
});
