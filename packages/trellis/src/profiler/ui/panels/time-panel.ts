import { html } from '../../../html/html.ts';
import type { TimeData } from '../../collectors/time-collector.ts';
import { formatTime } from '../format-time.ts';
import { dataOf, type Panel } from './panel.ts';

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;

export const timePanel: Panel = {
  name: 'time',
  label: 'Performance',
  badge: (profile) => ({ text: ms(profile.durationMs) }),
  render(profile, ctx) {
    const data = dataOf<TimeData>(profile, 'time');
    if (!data) return html`<h2>Performance</h2><p class="pf-empty">No timing data was collected.</p>`;
    const total = Math.max(data.durationMs, ...data.phases.map((p) => p.startMs + p.durationMs), 0.001);
    const pct = (n: number) => Math.min(100, (n / total) * 100);
    return html`<h2>Performance</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${ms(data.durationMs)}</div><div class="label">Total time</div></div>
<div class="pf-metric"><div class="value">${formatTime(data.startTime, ctx.timeZone)}</div><div class="label">Started (${ctx.timeZone})</div></div></div>
<h3>Lifecycle</h3>
${data.phases.length === 0
  ? html`<p class="pf-empty">No phases were recorded.</p>`
  : html`<div class="pf-timeline">${data.phases.map(
      // SVG geometry, not a style attribute: the page's CSP allows no inline style but its sheet.
      (p) => html`<div class="row"><span class="mono">${p.name}</span><svg class="track" viewBox="0 0 100 1" preserveAspectRatio="none" aria-hidden="true"><rect class="bar" x="${pct(p.startMs).toFixed(2)}" y="0" width="${Math.max(0.4, pct(p.durationMs)).toFixed(2)}" height="1"/></svg><span class="ms">${ms(p.durationMs)}</span></div>`,
    )}</div>`}`;
  },
};
