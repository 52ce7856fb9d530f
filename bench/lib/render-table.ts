import type { ScenarioResult } from '../scenarios/scenario.ts';
import type { Spread } from './stats.ts';
import type { BudgetVerdict } from './budgets.ts';

/**
 * Columns padded to their widest cell; `align` has one letter per column, `l` or `r` (default:
 * the first column left, figures right).
 */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align = 'l' + 'r'.repeat(header.length - 1)): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (align[i] === 'r' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const pct = (s: Spread) => (Number.isFinite(s.relative) ? `±${((s.relative / 2) * 100).toFixed(1)}%` : '–');
const ratio = (s: Spread) => (Number.isFinite(s.median) ? `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})` : '–');

/** A scenario's table: one row per server (load) or per figure (measure). */
export function renderScenario(result: ScenarioResult): string {
  if (result.kind === 'load') {
    const rows = result.servers.map((s) => [s.name, int(s.rps.median), pct(s.rps), ms(s.p50Ms.median), ms(s.p99Ms.median), s.name === result.baseline ? '1.00 (baseline)' : ratio(s.ratio)]);
    return textTable(['server', 'req/s', 'spread', 'p50 ms', 'p99 ms', `× ${result.baseline} (range)`], rows);
  }
  return textTable(['figure', 'value', 'unit'], result.measurements.map((m) => [m.name, m.value >= 100 ? int(m.value) : m.value.toFixed(2), m.unit]), 'lrl');
}

export function renderVerdicts(verdicts: readonly BudgetVerdict[]): string {
  if (verdicts.length === 0) return '(no budget applies to the scenarios run)';
  return textTable(
    ['budget', 'scenario', 'metric', 'status', 'detail'],
    verdicts.map((v) => [v.description, v.scenario, v.metric ?? '–', v.status, v.detail]),
    'lllll',
  );
}
