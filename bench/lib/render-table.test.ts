import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderScenario, textTable } from './render-table.ts';
import { spread } from './stats.ts';

test('textTable pads columns: first left, figures right', () => {
  assert.equal(textTable(['a', 'bb'], [['xyz', '1'], ['q', '22']]), 'a    bb\n---  --\nxyz   1\nq    22');
});

test('a load scenario shows req/s, spread, latency and the ratio to the baseline', () => {
  const lr = (rps: number) => ({ requests: rps, requestsPerSecond: rps, p50Ms: 1.5, p99Ms: 4, errors: 0 });
  const out = renderScenario({
    kind: 'load',
    baseline: 'base',
    metrics: {},
    notes: [],
    servers: [
      { name: 'base', description: '', rounds: [lr(1000)], rps: spread([1000, 1100, 900]), p50Ms: spread([1.5]), p99Ms: spread([4]), ratio: spread([1]) },
      { name: 'app', description: '', rounds: [lr(900)], rps: spread([900]), p50Ms: spread([2]), p99Ms: spread([5.25]), ratio: spread([0.9, 0.85, 0.95]) },
    ],
  });
  assert.equal(
    out,
    [
      'server  req/s  spread  p50 ms  p99 ms    × base (range)',
      '------  -----  ------  ------  ------  ----------------',
      'base    1,000  ±10.0%    1.50    4.00   1.00 (baseline)',
      'app       900   ±0.0%    2.00    5.25  0.90 (0.85–0.95)',
    ].join('\n'),
  );
});
