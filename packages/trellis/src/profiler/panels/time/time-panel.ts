import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { formatMb, formatMs } from '../../ui/format-duration.ts';
import { timeCollector } from './time-collector.ts';
import { html, type SafeHtml } from '../../../html/html.ts';
import type { ApiData } from '../api/api-collector.ts';
import type { DbData } from '../db/db-collector.ts';
import type { HttpClientData } from '../http-client/http-client-collector.ts';
import type { TimeData } from './time-collector.ts';
import type { LogsData } from '../logs/logs-collector.ts';
import { formatTime } from '../../ui/format-time.ts';
import { dataOf } from '../../ui/panels/panel.ts';
import type { Profile } from '../../profile.ts';

const ms = formatMs;
const mb = formatMb;

interface Row {
  readonly group: string;
  readonly label: string;
  readonly startMs: number;
  readonly durationMs: number;
  /** Shown on hover (an SVG title: no script runs on these pages). */
  readonly detail: string;
}

/** Every timed event of the profile on one axis: phases, resource stages, queries, outgoing calls. */
function rows(profile: Profile, time: TimeData): Row[] {
  const out: Row[] = time.phases.map((p) => ({ group: 'phase', label: p.name, startMs: p.startMs, durationMs: p.durationMs, detail: `${p.name}: ${ms(p.durationMs)}` }));
  for (const s of dataOf<ApiData>(profile, 'api')?.stages ?? []) {
    if (s.outcome !== 'skipped') out.push({ group: 'stage', label: s.stage, startMs: s.startMs, durationMs: s.durationMs, detail: `${s.stage} (${s.outcome}): ${ms(s.durationMs)}` });
  }
  (dataOf<DbData>(profile, 'db')?.queries ?? []).forEach((q, i) => out.push({ group: 'db', label: `query #${i + 1}`, startMs: q.atMs, durationMs: q.durationMs, detail: `${ms(q.durationMs)} ${q.sql.slice(0, 300)}` }));
  for (const c of dataOf<HttpClientData>(profile, 'http_client')?.calls ?? []) {
    out.push({ group: 'http', label: `${c.method} ${c.url.replace(/^https?:\/\//, '').slice(0, 40)}`, startMs: c.atMs, durationMs: c.durationMs ?? 0, detail: `${c.method} ${c.url} → ${c.status ?? c.error ?? 'no response'}` });
  }
  // Log records are instants: a mark on the axis, always shown.
  for (const l of dataOf<LogsData>(profile, 'logs')?.records ?? []) {
    out.push({ group: 'log', label: `${l.level} ${l.channel}`, startMs: Math.max(0, l.time - time.startTime), durationMs: 0, detail: `${l.level} ${l.channel}: ${l.message.slice(0, 300)}` });
  }
  return out;
}

/** Symfony's Performance panel: one timeline (SVG) of everything timed, with a threshold to hide short events. */
export const timePanel: ProfilerPanel = defineProfilerPanel<TimeData>({
  id: 'time',
  label: 'Performance',
    collect: (request) => timeCollector.collect(request),
badge: (_data, profile) => ({ text: ms(profile.durationMs) }),
  render(data, profile, ctx) {
    const min = Math.max(0, Number(ctx.params?.min ?? 0) || 0);
    const all = rows(profile, data);
    // Lifecycle phases always show: they are the axis the rest hangs on.
    const shown = all.filter((r) => r.group === 'phase' || r.group === 'log' || r.durationMs >= min);
    const total = Math.max(data.durationMs, ...all.map((r) => r.startMs + r.durationMs), 0.001);
    const pct = (n: number) => Math.min(100, (n / total) * 100);
    const hidden = all.length - shown.length;
    return html`<h2>Performance</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${ms(data.durationMs)}</div><div class="label">Total time</div></div>
<div class="pf-metric"><div class="value">${formatTime(data.startTime, ctx.timeZone)}</div><div class="label">Started (${ctx.timeZone})</div></div>
${data.memory ? html`<div class="pf-metric"><div class="value">${mb(data.memory.heapStart)} → ${mb(data.memory.heapEnd)}</div><div class="label">JS heap in use</div></div>
<div class="pf-metric"><div class="value">${mb(data.memory.rss)}</div><div class="label">Process RSS</div></div>` : ''}</div>
<h3>Timeline</h3>
<form class="pf-threshold" method="get"><input type="hidden" name="panel" value="time"><label>Hide events shorter than <input type="number" name="min" min="0" step="0.1" value="${String(min)}"> ms</label> <button type="submit">Apply</button>${hidden > 0 ? html` <span class="pf-note">${hidden} hidden</span>` : ''}</form>
${shown.length === 0
  ? html`<p class="pf-empty">No phases were recorded.</p>`
  : html`<div class="pf-timeline">${shown.map((r): SafeHtml =>
      // SVG geometry, not a style attribute: the page's CSP allows no inline style but its sheet.
      html`<div class="row ${r.group}"><span class="mono">${r.label}</span><svg class="track" viewBox="0 0 100 1" preserveAspectRatio="none" role="img" aria-label="${r.detail}"><title>${r.detail}</title><rect class="bar ${r.group}" x="${pct(r.startMs).toFixed(2)}" y="0" width="${Math.max(0.4, pct(r.durationMs)).toFixed(2)}" height="1"/></svg><span class="ms">${ms(r.durationMs)}</span></div>`,
    )}</div>`}`;
  },
});
