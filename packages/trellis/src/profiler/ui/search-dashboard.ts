import { html, type SafeHtml } from '../../html/html.ts';
import type { ProfileSummary } from '../profile.ts';
import { formatMs } from './format-duration.ts';
import { statusClass } from './layout.ts';
import { LATENCY_BOUNDS, searchStats, type RoutePattern, type SearchStats } from './search-stats.ts';

const BAR = 36;
const GAP = 6;
const HEIGHT = 100;
/** Each bar is labelled with its upper bound (ms), the last with its lower one. */
const LABELS = [...LATENCY_BOUNDS.map((b) => (b < 1000 ? `<${b}` : '<1s')), '≥1s'];

/** "12.5%" (one decimal, none for whole numbers). */
function percent(rate: number): string {
  return `${Number((rate * 100).toFixed(1))}%`;
}

/** A bucket's name: "< 5 ms", "5–10 ms", …, "≥ 1 s". */
function bucketName(i: number): string {
  if (i === 0) return `< ${LATENCY_BOUNDS[0]} ms`;
  if (i === LATENCY_BOUNDS.length) return '≥ 1 s';
  return `${LATENCY_BOUNDS[i - 1]}–${LATENCY_BOUNDS[i]} ms`;
}

/**
 * The latency histogram as inline SVG (no script, nothing loaded: the profiler's CSP allows
 * neither): a bar per bucket, its height relative to the fullest one, a title per bar for its
 * count, which screen readers and a hover both read.
 */
function histogram(latency: readonly number[]): SafeHtml {
  const top = Math.max(1, ...latency);
  const width = latency.length * (BAR + GAP);
  return html`<svg class="pf-histogram" viewBox="0 0 ${width} ${HEIGHT + 32}" role="img" aria-label="Latency histogram">${latency.map((count, i) => {
    const h = count === 0 ? 0 : Math.max(2, Math.round((count / top) * HEIGHT));
    const x = i * (BAR + GAP);
    return html`<g class="bucket"><title>${bucketName(i)}: ${count}</title><rect class="bar" x="${x}" y="${HEIGHT - h + 14}" width="${BAR}" height="${h}"></rect>
<text class="count" x="${x + BAR / 2}" y="${HEIGHT - h + 10}">${count}</text><text class="label" x="${x + BAR / 2}" y="${HEIGHT + 28}">${LABELS[i]}</text></g>`;
  })}</svg>`;
}

/**
 * The dashboard above the search results: status codes, error rates, the latency histogram and
 * the slowest routes, of the main requests listed (the summaries the page already has). Nothing
 * when none is listed.
 */
export function searchDashboard(results: readonly ProfileSummary[], routeOf?: RoutePattern): SafeHtml | '' {
  const stats: SearchStats = searchStats(results, 5, routeOf);
  if (stats.requests === 0) return '';
  return html`<section class="pf-dashboard" aria-label="Dashboard of the listed requests">
<div class="pf-card"><h3>Status codes</h3><p class="pf-statuses">${stats.statuses.map(([status, count]) => html`<span class="pf-status-count"><span class="pf-badge ${status >= 500 ? 'error' : status >= 400 ? 'warn' : ''} ${statusClass(status)}">${status}</span> ${count}</span>`)}</p>
<p class="pf-error-rate">Error rate: <strong class="server">${percent(stats.serverErrorRate)}</strong> 5xx, <strong class="client">${percent(stats.clientErrorRate)}</strong> 4xx, of ${stats.requests} ${stats.requests === 1 ? 'request' : 'requests'}</p></div>
<div class="pf-card"><h3>Latency</h3>${histogram(stats.latency)}</div>
<div class="pf-card"><h3>Slowest routes</h3><table class="pf-table pf-slowest"><thead><tr><th scope="col">Route</th><th scope="col">Requests</th><th scope="col">Mean</th><th scope="col">Max</th></tr></thead><tbody>${stats.slowest.map(
    (r) => html`<tr><td class="mono">${r.route}</td><td>${r.count}</td><td class="mono">${formatMs(r.meanMs)}</td><td class="mono">${formatMs(r.maxMs)}</td></tr>`,
  )}</tbody></table></div>
</section>`;
}
