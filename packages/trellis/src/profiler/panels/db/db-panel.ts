import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { formatMs } from '../../ui/format-duration.ts';
import { dbCollector } from './db-collector.ts';
import { html } from '../../../html/html.ts';
import type { DbData } from './db-collector.ts';
import { isCutParameter } from '../../recorded-query.ts';
import { notExplainable } from '../../explain/explain-query.ts';

const ms = formatMs;

/** A parameter as the query was given it; a long one says how long it was (recorded-query.ts). */
function parameterText(p: unknown): string {
  if (isCutParameter(p)) return `${JSON.stringify(p.cut)}… (${p.length.toLocaleString('en-US')} characters)`;
  if (typeof p === 'object' && p !== null && typeof (p as { binary?: unknown }).binary === 'number') return `<binary, ${(p as { binary: number }).binary.toLocaleString('en-US')} bytes>`;
  return JSON.stringify(p) ?? String(p);
}

/** Symfony's "Doctrine" panel for Trellis: every query, the statements grouped, N+1 and slow ones flagged. */
export const dbPanel: ProfilerPanel = defineProfilerPanel<DbData>({
  id: 'db',
  label: 'Database',
    collect: (request) => dbCollector.collect(request),
badge(data, profile) {
    if (data.count === 0) return null;
    const level = data.failed > 0 ? 'error' : data.statements.some((s) => s.repeated) ? 'warn' : undefined;
    return { text: `${data.count} in ${ms(data.durationMs)}`, ...(level && { level }) };
  },
  render(data, profile, ctx) {
    if (data.count === 0) return html`<h2>Database</h2><p class="pf-empty">No database queries were run for this request.</p>`;
    const repeated = data.statements.filter((s) => s.repeated);
    return html`<h2>Database</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${data.count}</div><div class="label">Queries</div></div>
<div class="pf-metric"><div class="value">${data.statements.length}</div><div class="label">Different statements</div></div>
<div class="pf-metric"><div class="value">${ms(data.durationMs)}</div><div class="label">Query time</div></div>
<div class="pf-metric"><div class="value">${data.failed}</div><div class="label">Failed</div></div></div>
${repeated.map((s) => html`<p class="pf-notice pf-repeated">The same statement ran ${s.count} times (${ms(s.durationMs)}): one query per row of another (N+1)? <code>${s.sql}</code>${s.origin ? html` from <code class="pf-origin">${s.origin}</code>` : ''}</p>`)}
<h3>Queries</h3>
<table class="pf-table pf-queries"><thead><tr><th>#</th><th>At</th><th>Time</th><th>Rows</th><th>Stage</th><th>Statement</th></tr></thead><tbody>${data.queries.map(
      (q, i) => html`<tr class="${q.error !== null ? 'failed' : q.durationMs >= data.slowMs ? 'slow' : ''}"><td class="mono">${i + 1}</td><td class="mono">${ms(q.atMs)}</td><td class="mono">${ms(q.durationMs)}</td><td class="mono">${q.rows ?? '–'}</td><td class="mono">${q.stage ?? ''}</td>
<td><pre class="pf-sql">${q.formatted}</pre>${ctx.explainHref && !q.foreign && notExplainable(q.sql) === null ? html`<a class="pf-explain" href="${ctx.explainHref(profile.token, i + 1, q.sql)}">Explain</a>` : ''}${q.parameters.length > 0 ? html`<div class="pf-params">Parameters: ${q.parameters.map((p, n) => html`${n > 0 ? ', ' : ''}<code>${parameterText(p)}</code>`)}</div>` : ''}${q.parameters.length > 0 && q.runnable ? html`<details class="pf-runnable"><summary>Runnable query</summary><pre class="pf-sql">${q.runnable}</pre></details>` : ''}${q.error !== null ? html`<div class="pf-query-error">${q.error}</div>` : ''}</td></tr>`,
    )}</tbody></table>
<h3>Statements</h3>
<table class="pf-table pf-statements"><thead><tr><th>#</th><th>Count</th><th>Time</th><th>SQL</th></tr></thead><tbody>${data.statements.map(
      (s, i) => html`<tr class="${s.repeated ? 'repeated' : ''}"><td class="mono">${i + 1}</td><td class="mono">${s.count}</td><td class="mono">${ms(s.durationMs)}</td><td><code>${s.sql}</code></td></tr>`,
    )}</tbody></table>`;
  },
});
