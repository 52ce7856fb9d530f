/**
 * CPU profiles on demand (issue 17, item 8): a request sent with `X-Trellis-Profile-CPU: 1` by a
 * client the profiler's gate allows is sampled with node:inspector, one at a time per process;
 * its profile has a CPU panel (flame graph, top functions) and a `.cpuprofile` download. Without
 * the header, from another client, with another request being sampled, or in production: no
 * sampling. The stored profile is capped.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { capCpuProfile, type CpuProfile, type CpuProfileNode, type CpuSample } from '../../src/profiler/cpu/cpu-profile.ts';
import { cpuSamplingActive } from '../../src/profiler/cpu/cpu-sampler.ts';
import { cpuPanel } from '../../src/profiler/panels/cpu/cpu-panel.ts';
import { HttpError } from '../../src/kernel/http-error.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import type { Profile } from '../../src/profiler/profile.ts';
import { BROWSER, profilerApp } from './profiler-app.ts';

const THIS_FILE = basename(new URL(import.meta.url).pathname);

/** Work the sampler can see: a named function of the app's own code running for a while. */
function burnForCpuTest(ms: number): number {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) for (let i = 0; i < 10_000; i++) x += Math.sqrt(i);
  return x;
}

describe('CPU profile on demand', () => {
  let app: FastifyInstance;
  let release: () => void = () => {};
  before(async () => {
    app = await profilerApp({ PROFILER_ALLOW: '10.9.0.0/16' }, {}, (a) => {
      a.get('/burn', async () => ({ sampling: cpuSamplingActive(), x: burnForCpuTest(60) > 0 }));
      a.get('/hold', async () => {
        const sampling = cpuSamplingActive();
        await new Promise<void>((resolve) => (release = resolve));
        return { sampling };
      });
    });
  });
  after(() => app.close());

  async function profileOf(token: string): Promise<Profile> {
    await app.profiler!.settled();
    return (await app.profiler!.read(token))!;
  }

  test('from loopback, the header gets the request sampled: a CPU panel with frames of the app', async () => {
    const res = await app.inject({ url: '/burn', headers: { 'x-trellis-profile-cpu': '1' } });
    assert.deepEqual(res.json(), { sampling: true, x: true });
    assert.equal(cpuSamplingActive(), false, 'stopped with the response');
    const token = res.headers['x-debug-token'] as string;
    const cpu = (await profileOf(token)).collectors.cpu as CpuSample;
    assert.equal(cpu.intervalUs, 100);
    // Frames of this file: burnForCpuTest, or the route handler it was inlined into once optimized.
    const appFrames = cpu.profile.nodes.filter((n) => n.callFrame.url.endsWith(`/${THIS_FILE}`));
    assert.ok(appFrames.length > 0, 'the app code is in the profile');
    assert.ok(appFrames.reduce((sum, n) => sum + (n.hitCount ?? 0), 0) > 0, 'and was sampled');
    assert.ok(appFrames.every((n) => /^(burnForCpuTest|)$/.test(n.callFrame.functionName)), appFrames.map((n) => n.callFrame.functionName).join());

    const page = await app.inject({ url: `/_profiler/${token}?panel=cpu`, headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<svg class="pf-flame" viewBox="0 0 1000 \d+"/);
    assert.match(page.body, /<g class="app"><title>(burnForCpuTest|\(anonymous\)) \(packages\/trellis\/test\/profiler\/cpu-profile\.test\.ts:\d+\)\ntotal [\d.]+ ms \([\d.]+ %\), self [\d.]+ ms<\/title><rect /);
    assert.match(page.body, /<tr class="app"><td class="mono">(burnForCpuTest|\(anonymous\))<\/td><td class="mono">packages\/trellis\/test\/profiler\/cpu-profile\.test\.ts:\d+<\/td>/);
    assert.ok(page.body.includes(`<a class="pf-download" href="/_profiler/${token}.cpuprofile" download>Download the .cpuprofile</a>`));
    assert.match(page.body, /<a[^>]*data-panel="cpu"[^>]*><span>CPU profile<\/span><span class="pf-badge ">[\d.]+ ms<\/span>/);
  });

  test('the .cpuprofile download is a V8 CPU profile DevTools can load', async () => {
    const res = await app.inject({ url: '/burn', headers: { 'x-trellis-profile-cpu': '1' } });
    const token = res.headers['x-debug-token'] as string;
    await app.profiler!.settled();
    const file = await app.inject({ url: `/_profiler/${token}.cpuprofile` });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(file.headers['content-disposition'], `attachment; filename="trellis-${token}.cpuprofile"`);
    const profile = JSON.parse(file.body) as CpuProfile;
    assert.deepEqual(Object.keys(profile).sort(), ['endTime', 'nodes', 'samples', 'startTime', 'timeDeltas']);
    assertWellFormed(profile);
    assert.equal(profile.nodes[0]!.callFrame.functionName, '(root)');
    assert.ok(profile.endTime > profile.startTime);
    assert.ok(profile.nodes.some((n) => n.callFrame.url.endsWith(`/${THIS_FILE}`) && (n.hitCount ?? 0) > 0), 'frames of the app, sampled');
    assert.equal((await app.inject({ url: `/_profiler/${token}.cpuprofile`, remoteAddress: '192.0.2.7' })).statusCode, 404, 'behind the gate');
  });

  test('without the header, with another value, or from a client the gate refuses: not sampled', async () => {
    const cases = [
      { name: 'no header', headers: {} },
      { name: 'header "true"', headers: { 'x-trellis-profile-cpu': 'true' } },
      { name: 'refused client', headers: { 'x-trellis-profile-cpu': '1' }, remoteAddress: '192.0.2.7' },
      { name: 'forged X-Forwarded-For, no trusted proxy', headers: { 'x-trellis-profile-cpu': '1', 'x-forwarded-for': '127.0.0.1' }, remoteAddress: '192.0.2.7' },
    ];
    for (const c of cases) {
      const res = await app.inject({ url: '/burn', headers: c.headers, ...(c.remoteAddress ? { remoteAddress: c.remoteAddress } : {}) });
      assert.equal(res.statusCode, 200, c.name);
      assert.equal(res.json().sampling, false, c.name);
      // A refused client is not told of its profile (profile-recorder.ts): found as the newest one.
      if (c.remoteAddress) assert.equal(res.headers['x-debug-token'], undefined, `${c.name}: not told`);
      await app.profiler!.settled();
      const token = (res.headers['x-debug-token'] as string | undefined) ?? ((await app.inject({ url: '/_profiler/search.json?limit=1' })).json() as { results: { token: string }[] }).results[0]!.token;
      assert.equal((await profileOf(token)).collectors.cpu, null, c.name);
      const file = await app.inject({ url: `/_profiler/${token}.cpuprofile`, headers: { accept: 'application/problem+json' } });
      assert.equal(file.statusCode, 404, c.name);
      assert.equal(file.json().detail, `Profile "${token}" has no CPU profile: send the request with "X-Trellis-Profile-CPU: 1" from a client the profiler allows.`);
    }
    const allowed = await app.inject({ url: '/burn', headers: { 'x-trellis-profile-cpu': '1' }, remoteAddress: '10.9.8.7' });
    assert.equal(allowed.json().sampling, true, 'a PROFILER_ALLOW client is sampled');
    const page = await app.inject({ url: '/_profiler/latest?panel=cpu', headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 200);
    const unsampled = await app.inject({ url: '/hello' });
    await app.profiler!.settled();
    const hint = await app.inject({ url: `/_profiler/${unsampled.headers['x-debug-token']}?panel=cpu`, headers: { accept: BROWSER } });
    assert.ok(hint.body.includes('This request was not CPU-sampled. Send it again with the header <code>X-Trellis-Profile-CPU: 1</code>'));
    assert.equal(hint.body.includes('pf-flame"'), false);
  });

  test('one request at a time: a second one asking while the first is sampled is not sampled', async () => {
    const first = app.inject({ url: '/hold', headers: { 'x-trellis-profile-cpu': '1' } });
    while (!cpuSamplingActive()) await new Promise((resolve) => setImmediate(resolve));
    const releaseFirst = release;
    const second = app.inject({ url: '/burn', headers: { 'x-trellis-profile-cpu': '1' } });
    const secondRes = await second;
    assert.equal(secondRes.json().sampling, true, 'it ran while the first was sampled');
    releaseFirst();
    const firstRes = await first;
    assert.equal(firstRes.json().sampling, true);
    const [a, b] = [await profileOf(firstRes.headers['x-debug-token'] as string), await profileOf(secondRes.headers['x-debug-token'] as string)];
    assert.equal(typeof (a.collectors.cpu as CpuSample | null)?.profile, 'object', 'the first is sampled');
    assert.equal(b.collectors.cpu, null, 'the second is not');
    assert.equal(cpuSamplingActive(), false);
  });
});

test('through the profiler thread (a SQLite store): the CPU profile is stored and downloads', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-cpu-'));
  const app = await profilerApp({ PROFILER_DSN: `sqlite:${join(dir, 'profiles.db')}` }, {}, (a) => a.get('/burn', async () => ({ x: burnForCpuTest(30) > 0 })));
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const res = await app.inject({ url: '/burn', headers: { 'x-trellis-profile-cpu': '1' } });
  await app.profiler!.settled();
  const file = await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.cpuprofile` });
  assert.equal(file.statusCode, 200);
  const profile = JSON.parse(file.body) as CpuProfile;
  assertWellFormed(profile);
  assert.ok(profile.nodes.some((n) => n.callFrame.url.endsWith(`/${THIS_FILE}`)));
});

test('production has no profiler: the header samples nothing', async (t) => {
  const app = await createApp({ config: testConfig({ NODE_ENV: 'production', APP_DEBUG: '0' }), tls: null });
  app.get('/burn', async () => ({ sampling: cpuSamplingActive() }));
  t.after(() => app.close());
  const res = await app.inject({ url: '/burn', headers: { 'x-trellis-profile-cpu': '1' } });
  assert.deepEqual(res.json(), { sampling: false });
  assert.equal(res.headers['x-debug-token'], undefined);
  assert.equal(app.profiler, undefined);
  assert.equal((await app.inject({ url: '/_profiler/latest.cpuprofile' })).statusCode, 404);
});

test('the error message of a profile without a CPU profile is exact', () => {
  const error = HttpError.of('profiler_cpu_profile_not_found', { token: 'abc123' });
  assert.equal(error.status, 404);
  assert.equal(error.message, 'Profile "abc123" has no CPU profile: send the request with "X-Trellis-Profile-CPU: 1" from a client the profiler allows.');
});

/** Samples and children name nodes that exist; hit counts add up to the samples. */
function assertWellFormed(profile: CpuProfile): void {
  const ids = new Set(profile.nodes.map((n) => n.id));
  assert.equal(ids.size, profile.nodes.length, 'node ids are unique');
  assert.equal(profile.samples.length, profile.timeDeltas.length);
  assert.ok(profile.samples.every((s) => ids.has(s)), 'every sample is a node');
  assert.ok(profile.nodes.every((n) => (n.children ?? []).every((c) => ids.has(c))), 'every child is a node');
  assert.equal(profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0), profile.samples.length);
}

/** A synthetic profile: a root with `width` chains of `depth` frames, sampled round-robin at the leaves. */
function bigProfile(width: number, depth: number, samples: number): CpuProfile {
  const nodes: CpuProfileNode[] = [{ id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, children: [] }];
  const leaves: number[] = [];
  for (let w = 0; w < width; w++) {
    let parent = nodes[0]!;
    for (let d = 0; d < depth; d++) {
      const node: CpuProfileNode = { id: nodes.length + 1, callFrame: { functionName: `f${w}_${d}`, scriptId: '1', url: 'file:///app/x.js', lineNumber: d, columnNumber: 0 }, children: [], positionTicks: [{ line: d + 1, ticks: 1 }] };
      (parent.children as number[]).push(node.id);
      nodes.push(node);
      parent = node;
    }
    leaves.push(parent.id);
  }
  // Skewed: chain w is sampled about 1/(w+1) as often, so some are rare enough to fold.
  const picks: number[] = [];
  for (let i = 0; picks.length < samples; i++) for (let w = 0; w < width && picks.length < samples; w++) if (i % (w + 1) === 0) picks.push(leaves[w]!);
  return { nodes, startTime: 1000, endTime: 1000 + samples * 100, samples: picks, timeDeltas: picks.map(() => 100) };
}

test('a large profile is capped: samples merged, rare subtrees folded, still well formed, time kept', () => {
  const raw = bigProfile(400, 12, 50_000);
  const limits = { maxSamples: 10_000, maxNodes: 1_000, maxBytes: 300 * 1024 };
  const capped = capCpuProfile(raw, 100, limits);
  assert.equal(capped.samplesMerged, 5);
  assert.equal(capped.profile.samples.length, 10_000);
  assert.ok(capped.profile.nodes.length <= 1_000, `${capped.profile.nodes.length} nodes`);
  assert.ok(capped.nodesFolded > 0);
  assert.ok(JSON.stringify(capped.profile).length <= limits.maxBytes);
  assertWellFormed(capped.profile);
  assert.equal(capped.profile.timeDeltas.reduce((a, b) => a + b, 0), raw.timeDeltas.reduce((a, b) => a + b, 0));
  assert.ok(capped.profile.nodes.every((n) => n.positionTicks === undefined), 'line ticks dropped once merged');
  // The byte cap wins over the node cap.
  const small = capCpuProfile(raw, 100, { ...limits, maxBytes: 40 * 1024 });
  assert.ok(JSON.stringify(small.profile).length <= 40 * 1024);
  assertWellFormed(small.profile);
  // Under the limits, only never-sampled frames go; line ticks stay.
  const untouched = capCpuProfile(bigProfile(3, 4, 30), 100, limits);
  assert.deepEqual([untouched.samplesMerged, untouched.nodesFolded, untouched.profile.nodes.length], [1, 0, 13]);
  assert.ok(untouched.profile.nodes.slice(1).every((n) => n.positionTicks !== undefined));
});

test('the CPU panel shows markup in function names and URLs escaped', () => {
  const hostile = '<img src=x onerror=alert(1)>';
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2] },
      { id: 2, callFrame: { functionName: hostile, scriptId: '1', url: `file:///app/${hostile}.js`, lineNumber: 3, columnNumber: 0 }, hitCount: 2 },
    ],
    startTime: 0, endTime: 300, samples: [2, 2], timeDeltas: [100, 100],
  };
  const page = cpuPanel.render({ token: 'abc123', parent: null, ip: '127.0.0.1', method: 'GET', url: '/', time: 0, statusCode: 200, durationMs: 1, children: [], collectors: { cpu: { profile, intervalUs: 100, samplesMerged: 1, nodesFolded: 0 } } }, { timeZone: 'UTC' }).toString();
  assert.doesNotMatch(page, /<img/);
  assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'));
  assert.match(page, /<tr class="app"><td class="mono">&lt;img src=x onerror=alert\(1\)&gt;<\/td><td class="mono">file:\/\/\/app\/&lt;img src=x onerror=alert\(1\)&gt;\.js:4<\/td><td>0\.20 ms<\/td><td>100\.0<\/td><\/tr>/);
});
