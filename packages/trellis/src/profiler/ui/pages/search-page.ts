import { html, safeHref, type SafeHtml } from '../../../html/html.ts';
import type { ProfileSummary } from '../../profile.ts';
import { formatTime } from '../format-time.ts';
import { layout, statusClass } from '../layout.ts';
import { searchBar } from '../search-bar.ts';
import { searchDashboard } from '../search-dashboard.ts';
import type { SearchParams } from '../search-params.ts';
import type { RoutePattern } from '../search-stats.ts';

/** The seed's sentence, to the letter: "<n> results found", or "No results found". */
export function resultsSentence(n: number): string {
  return n === 0 ? 'No results found' : `${n} results found`;
}

/** The search listing: newest first, columns Status, IP, Method, URL, Time, Token. */
/** "1,204 requests not recorded since start: the profiler could not keep up", or null for none. */
export function notRecordedMessage(dropped: number): string | null {
  if (dropped === 0) return null;
  return `${dropped.toLocaleString('en-US')} ${dropped === 1 ? 'request' : 'requests'} not recorded since start: the profiler could not keep up or its store failed (see the log).`;
}

/** The Pin button of each row and the Purge button (pins/pin-form.ts), when the profiler has pins. */
export interface SearchPins {
  row(summary: ProfileSummary): SafeHtml;
  readonly purge: SafeHtml;
}

export function searchPage(results: readonly ProfileSummary[], params: SearchParams, timeZone: string, dropped = 0, pins?: SearchPins, routeOf?: RoutePattern): string {
  const notRecorded = notRecordedMessage(dropped);
  const main = html`${notRecorded === null ? '' : html`<p class="pf-notice pf-dropped">${notRecorded}</p>`}<div class="pf-results-head"><h2 class="pf-results-count">${resultsSentence(results.length)}</h2>${pins?.purge ?? ''}</div>
${searchDashboard(results, routeOf)}
${results.length === 0
  ? html`<p class="pf-empty">No profile matches this search.</p>`
  : html`<table class="pf-table pf-results"><thead><tr><th>Status</th><th>IP</th><th>Method</th><th>URL</th><th>Time</th><th>Token</th>${pins ? html`<th scope="col">Pin</th>` : ''}</tr></thead><tbody>${results.map(
      (r) => html`<tr class="${r.parent ? 'child' : ''}"><td><span class="pf-badge ${r.statusCode >= 500 ? 'error' : r.statusCode >= 400 ? 'warn' : ''} ${statusClass(r.statusCode)}">${r.statusCode}</span></td>
<td class="mono">${r.ip}</td><td>${r.method}</td><td><a href="${safeHref(r.url)}" rel="nofollow" class="mono">${r.url}</a>${r.parent ? html`<span class="pf-tag" title="Sub-request of ${r.parent}">sub-request</span>` : ''}</td>
<td class="mono">${formatTime(r.time, timeZone)}</td><td><a class="mono token" href="/_profiler/${r.token}">${r.token}</a></td>${pins ? html`<td>${pins.row(r)}</td>` : ''}</tr>`,
    )}</tbody></table>`}`;
  return layout({ title: `${resultsSentence(results.length)} – Profiler`, sidebar: searchBar(params), main });
}
