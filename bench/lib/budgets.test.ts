import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBudgets, type Budget } from './budgets.ts';

const ratio: Budget = { description: 'prod ≥ 0.90', scenarios: ['get-item', 'get-collection'], metric: /^ratio:bookshop-prod$/, op: '>=', limit: 0.9, unit: '×' };
const p95: Budget = { description: 'find p95 < 20 ms', scenarios: ['profiler-find'], metric: /^find-p95-ms:/, op: '<', limit: 20, unit: 'ms' };

test('a met budget reports its value against the limit', () => {
  const [v] = checkBudgets({ 'get-item': { metrics: { 'ratio:bookshop-prod': 0.95 } } }, [ratio]);
  assert.deepEqual(v, { description: 'prod ≥ 0.90', scenario: 'get-item', metric: 'ratio:bookshop-prod', status: 'met', value: 0.95, detail: '0.950 × >= 0.900 ×' });
});

test('a missed budget says by how much', () => {
  const verdicts = checkBudgets({ 'profiler-find': { metrics: { 'find-p95-ms:sqlite': 25, 'find-p95-ms:redis': 3 } } }, [p95]);
  assert.deepEqual(
    verdicts.map((v) => [v.metric, v.status, v.detail]),
    [
      ['find-p95-ms:sqlite', 'missed', '25.0 ms: over by 5.000 ms (25.0% of the limit)'],
      ['find-p95-ms:redis', 'met', '3.000 ms < 20.0 ms'],
    ],
  );
  const [short] = checkBudgets({ 'get-item': { metrics: { 'ratio:bookshop-prod': 0.81 } } }, [ratio]);
  assert.equal(short!.detail, '0.810 ×: short by 0.090 × (10.0% of the limit)');
});

test('a skipped scenario leaves the budget not measured, with the reason; an unselected one is left out', () => {
  const verdicts = checkBudgets({ 'get-item': { skipped: 'the resource layer has not landed' } }, [ratio]);
  assert.deepEqual(verdicts, [{ description: 'prod ≥ 0.90', scenario: 'get-item', metric: null, status: 'not measured', detail: 'skipped: the resource layer has not landed' }]);
});

test('a scenario that ran without the metric is not measured', () => {
  const [v] = checkBudgets({ 'get-item': { metrics: { 'ratio:raw-node': 1.4 } } }, [ratio]);
  assert.equal(v!.status, 'not measured');
});
