import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { formatMs } from '../../ui/format-duration.ts';
import { httpClientCollector } from './http-client-collector.ts';
import { html, safeHref } from '../../../html/html.ts';
import type { HttpClientData } from './http-client-collector.ts';
import { keyValueTable } from '../../ui/panels/key-value-table.ts';

const ms = (n: number | null) => (n === null ? 'running' : formatMs(n));

/** Symfony's HTTP Client panel for Trellis: the app's outgoing `fetch` calls, linked to the callee's profile. */
export const httpClientPanel: ProfilerPanel = defineProfilerPanel<HttpClientData>({
  id: 'http_client',
  label: 'HTTP Client',
    collect: (request) => httpClientCollector.collect(request),
badge(data, profile) {
    if (data.count === 0) return null;
    return { text: String(data.count), ...(data.failed > 0 ? { level: 'error' as const } : {}) };
  },
  render(data, profile, ctx) {
    if (data.count === 0) return html`<h2>HTTP Client</h2><p class="pf-empty">No outgoing HTTP request was made for this request.</p>`;
    return html`<h2>HTTP Client</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${data.count}</div><div class="label">Requests</div></div>
<div class="pf-metric"><div class="value">${ms(data.durationMs)}</div><div class="label">Total time</div></div>
<div class="pf-metric"><div class="value">${data.failed}</div><div class="label">Failed</div></div></div>
${data.calls.map(
  (c, i) => html`<h3>${i + 1}. <span class="method">${c.method}</span> <code>${c.url}</code> <small class="pf-note">${c.error !== null ? `failed: ${c.error}` : c.status === null ? 'no response yet' : String(c.status)} · ${ms(c.durationMs)} · at ${ms(c.atMs)}</small></h3>
${c.profile !== null ? html`<p class="pf-related">Profile of the callee: <a href="${safeHref(c.profile)}">${c.profile}</a></p>` : ''}
${keyValueTable('Request headers', c.requestHeaders)}${c.responseHeaders ? keyValueTable('Response headers', c.responseHeaders) : ''}`,
)}`;
  },
});
