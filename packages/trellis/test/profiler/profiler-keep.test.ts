/**
 * Which requests are recorded (PROFILER_SAMPLE, PROFILER_ONLY) and what is said of those that are
 * not (the backlog bound, PROFILER_MAX_BACKLOG): issue 14, item 3.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER, profilerApp } from './profiler-app.ts';

test('PROFILER_SAMPLE=0: ordinary requests are not recorded (no X-Debug-Token); failures still are', async () => {
  const app = await profilerApp({ PROFILER_SAMPLE: '0' });
  try {
    const ok = await app.inject({ url: '/hello' });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['x-debug-token'], undefined);
    const missing = await app.inject({ url: '/nowhere' });
    assert.equal(missing.statusCode, 404);
    assert.match(missing.headers['x-debug-token'] as string, /^[0-9a-f]{6}$/);
    const listed = (await app.inject({ url: '/_profiler/search.json' })).json() as { results: { url: string; parent: string | null }[] };
    assert.deepEqual(listed.results.filter((r) => r.parent === null).map((r) => new URL(r.url).pathname), ['/nowhere']);
  } finally {
    await app.close();
  }
});

test('PROFILER_ONLY=errors keeps failures only; slow:<ms> keeps slow requests only', async () => {
  const errors = await profilerApp({ PROFILER_ONLY: 'errors' });
  try {
    assert.equal((await errors.inject({ url: '/hello' })).headers['x-debug-token'], undefined);
    assert.notEqual((await errors.inject({ url: '/nowhere' })).headers['x-debug-token'], undefined);
  } finally {
    await errors.close();
  }
  const slow = await profilerApp({ PROFILER_ONLY: 'slow:50' }, {}, (app) => {
    app.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 80));
      return { slow: true };
    });
  });
  try {
    assert.equal((await slow.inject({ url: '/hello' })).headers['x-debug-token'], undefined);
    assert.equal((await slow.inject({ url: '/nowhere' })).headers['x-debug-token'], undefined);
    assert.notEqual((await slow.inject({ url: '/slow' })).headers['x-debug-token'], undefined);
  } finally {
    await slow.close();
  }
});

test('bad PROFILER_SAMPLE and PROFILER_ONLY values stop startup with the variable named', async () => {
  await assert.rejects(profilerApp({ PROFILER_SAMPLE: '1.5' }), /PROFILER_SAMPLE: expected a number from 0 to 1, got "1\.5"/);
  await assert.rejects(profilerApp({ PROFILER_ONLY: 'slow' }), /PROFILER_ONLY: expected errors, slow:<ms> or both \(errors,slow:500\), got "slow"/);
});

test('past PROFILER_MAX_BACKLOG requests go unrecorded, are counted, and the count is shown', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-backlog-'));
  const app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'p.db')}`, PROFILER_MAX_BACKLOG: '1' });
  try {
    const answers = await Promise.all(Array.from({ length: 200 }, () => app.inject({ url: '/hello' })));
    assert.ok(answers.every((r) => r.statusCode === 200), 'requests are unaffected');
    await app.profiler!.settled();
    const json = (await app.inject({ url: '/_profiler/search.json?limit=100' })).json() as { count: number; notRecorded: { count: number; message: string | null } };
    assert.ok(json.notRecorded.count > 0 && json.notRecorded.count < 200, `dropped ${json.notRecorded.count}`);
    assert.equal(json.notRecorded.message, `${json.notRecorded.count.toLocaleString('en-US')} requests not recorded since start: the profiler could not keep up or its store failed (see the log).`);
    const page = await app.inject({ url: '/_profiler/search?limit=100', headers: { accept: BROWSER } });
    assert.match(page.body, /<p class="pf-notice pf-dropped">[\d,]+ requests not recorded since start: the profiler could not keep up or its store failed \(see the log\)\.<\/p>/);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
