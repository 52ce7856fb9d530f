import { html, safeHref, type SafeHtml } from '../../../html/html.ts';
import type { HeaderDiff, Pair, ProfileComparison } from '../../compare/compare-profiles.ts';
import type { ProfileSummary } from '../../profile.ts';
import { formatMs } from '../format-duration.ts';
import { formatTime } from '../format-time.ts';
import { layout, statusClass } from '../layout.ts';
import { searchBar } from '../search-bar.ts';
import { searchParams } from '../search-params.ts';

type Unit = 'ms' | 'bytes' | 'count';

const value = (n: number | null, unit: Unit): string => (n === null ? '–' : unit === 'ms' ? formatMs(n) : unit === 'bytes' ? `${n.toLocaleString('en-US')} B` : String(n));

/** The difference, signed, marked slower/larger (b is worse) or faster/smaller. */
function delta(p: Pair, unit: Unit): SafeHtml {
  if (p.delta === null) return html`<span class="pf-note">–</span>`;
  if (p.delta === 0) return html`<span class="pf-note">=</span>`;
  const sign = p.delta > 0 ? '+' : '−';
  const text = value(Math.abs(p.delta), unit);
  const ratio = p.a !== null && p.a > 0 && p.b !== null ? html` <span class="pf-note">(×${(p.b / p.a).toFixed(2)})</span>` : '';
  return html`<span class="${p.delta > 0 ? 'pf-worse' : 'pf-better'}">${sign}${text}</span>${ratio}`;
}

const row = (label: string, p: Pair, unit: Unit) => html`<tr><th scope="row">${label}</th><td class="mono">${value(p.a, unit)}</td><td class="mono">${value(p.b, unit)}</td><td class="mono">${delta(p, unit)}</td></tr>`;

function side(name: string, s: ProfileSummary, timeZone: string): SafeHtml {
  return html`<div class="pf-compare-side"><span class="pf-status ${statusClass(s.statusCode)}">${s.statusCode}</span>
<div><h2>${name}: <a class="mono token" href="/_profiler/${s.token}">${s.token}</a></h2>
<p class="mono"><span class="method">${s.method}</span> <a href="${safeHref(s.url)}" rel="nofollow">${s.url}</a></p>
<p class="pf-note">${formatTime(s.time, timeZone)} · ${formatMs(s.durationMs)}</p></div></div>`;
}

function headerTable(title: string, d: HeaderDiff): SafeHtml {
  const rows = [
    ...d.changed.map((h) => html`<tr class="changed"><td>changed</td><th scope="row">${h.name}</th><td class="mono">${h.a}</td><td class="mono">${h.b}</td></tr>`),
    ...d.added.map((h) => html`<tr class="added"><td>added</td><th scope="row">${h.name}</th><td class="pf-note">–</td><td class="mono">${h.value}</td></tr>`),
    ...d.removed.map((h) => html`<tr class="removed"><td>removed</td><th scope="row">${h.name}</th><td class="mono">${h.value}</td><td class="pf-note">–</td></tr>`),
  ];
  return html`<h3>${title}</h3>${rows.length === 0
    ? html`<p class="pf-empty">Same headers.</p>`
    : html`<table class="pf-table pf-compare-headers"><thead><tr><th>Change</th><th>Header</th><th>A</th><th>B</th></tr></thead><tbody>${rows}</tbody></table>`}`;
}

/** `/_profiler/<a>/compare/<b>`: two profiles side by side, what differs first. */
export function comparePage(c: ProfileComparison, timeZone: string): string {
  const q = c.queries;
  const shapes = q.shapes.length === 0
    ? html`<p class="pf-empty">Neither request ran a query.</p>`
    : html`<table class="pf-table pf-compare-queries"><thead><tr><th>Change</th><th>Statement</th><th>A</th><th>B</th><th>Δ</th></tr></thead><tbody>${q.shapes.map(
        (s) => html`<tr class="${s.change}"><td>${s.change}</td><td><pre class="pf-sql">${s.shape}</pre></td>
<td class="mono">${s.a ? `${s.a.count} × · ${formatMs(s.a.durationMs)}` : '–'}</td><td class="mono">${s.b ? `${s.b.count} × · ${formatMs(s.b.durationMs)}` : '–'}</td>
<td class="mono">${delta({ a: s.a?.durationMs ?? 0, b: s.b?.durationMs ?? 0, delta: s.deltaMs }, 'ms')}</td></tr>`,
      )}</tbody></table>`;
  const main = html`<section class="pf-compare">
<div class="pf-compare-sides">${side('A', c.a, timeZone)}${side('B', c.b, timeZone)}</div>
<p class="pf-related"><a href="/_profiler/${c.b.token}/compare/${c.a.token}">Swap A and B</a> · <a href="/_profiler/${c.a.token}/compare/${c.b.token}.json">JSON</a></p>
<h3>Overview</h3>
<table class="pf-table pf-compare-overview"><thead><tr><th></th><th>A</th><th>B</th><th>Δ (B − A)</th></tr></thead><tbody>
<tr class="${c.status.changed ? 'changed' : ''}"><th scope="row">Status</th><td class="mono">${c.status.a}</td><td class="mono">${c.status.b}</td><td>${c.status.changed ? html`<span class="pf-worse">changed</span>` : html`<span class="pf-note">=</span>`}</td></tr>
${row('Duration', c.durationMs, 'ms')}${row('Queries', q.count, 'count')}${row('Query time', q.durationMs, 'ms')}${row('Response body', c.responseBytes, 'bytes')}${row('Request body', c.requestBytes, 'bytes')}
</tbody></table>
<h3>Phases</h3>${c.phases.length === 0
    ? html`<p class="pf-empty">No phase was recorded.</p>`
    : html`<table class="pf-table pf-compare-phases"><thead><tr><th>Phase</th><th>A</th><th>B</th><th>Δ</th></tr></thead><tbody>${c.phases.map((p) => row(p.name, p, 'ms'))}</tbody></table>`}
<h3>Queries <span class="pf-note">${q.added} added · ${q.removed} removed · ${q.changed} changed</span></h3>${shapes}
${headerTable('Request headers', c.headers.request)}${headerTable('Response headers', c.headers.response)}
</section>`;
  return layout({ title: `Compare ${c.a.token} with ${c.b.token} – Profiler`, sidebar: searchBar(searchParams({})), main });
}

/** The small form the profile page carries: another token to compare this profile with. */
export function compareForm(token: string): SafeHtml {
  return html`<form class="pf-compare-form" action="/_profiler/${token}/compare" method="get"><label for="compare-with">Compare with</label>
<input type="text" name="with" id="compare-with" maxlength="6" placeholder="token" pattern="[0-9a-f]{6}|latest" required><button type="submit">Compare</button></form>`;
}
