import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { formatMs } from '../../ui/format-duration.ts';
import { apiCollector } from './api-collector.ts';
import { html, type SafeHtml } from '../../../html/html.ts';
import type { RequestData } from '../request/request-collector.ts';
import type { ResponseData } from '../response/response-collector.ts';
import type { Profile } from '../../profile.ts';
import type { ApiData } from './api-collector.ts';
import { bodyView, keyValueTable } from '../../ui/panels/key-value-table.ts';
import { dataOf, type PanelContext } from '../../ui/panels/panel.ts';

const ms = formatMs;
const STAGE_NAMES: Record<string, string> = { post_denormalize: 'securityPostDenormalize', security: 'security' };

/** What the collection's filters and pagination made of the query (the running app's resource reads it again). */
function parsed(data: ApiData, ctx: PanelContext): SafeHtml | string {
  if (data.resource === null || data.operation === null || !ctx.describeQuery) return '';
  const described = ctx.describeQuery(data.resource, data.operation, data.query);
  if (!described) return '';
  const p = described.pagination;
  return html`<h3>As the operation reads it</h3>
<table class="pf-table pf-parsed"><thead><tr><th>Filter</th><th>Parameters</th><th>Bound values</th></tr></thead><tbody>${
    described.filters.length === 0
      ? html`<tr><td colspan="3" class="pf-note">No filter applies.</td></tr>`
      : described.filters.map((f) => html`<tr><td class="mono">${f.filter}</td><td class="mono">${f.parameters.join(', ')}</td><td>${f.error !== null ? html`<span class="pf-note">${f.error}</span>` : f.values === null || f.values.length === 0 ? html`<span class="pf-note">binds no value (orders, or builds its SQL per request)</span>` : html`<code>${JSON.stringify(f.values)}</code>`}</td></tr>`)
  }</tbody></table>
${p ? html`<p class="pf-note">Pagination: ${p.enabled ? `page ${p.page}, ${p.itemsPerPage} per page${p.partial ? ', partial (no count)' : ''}` : 'off'}.</p>` : ''}`;
}

/** The deserialised input, as the Request panel keeps it (redacted, cut at the body limit). */
function input(profile: Profile): SafeHtml | string {
  const body = dataOf<RequestData>(profile, 'request')?.body;
  return body && body.text !== null ? bodyView('Input', body) : '';
}

/** A 422's violations, read from the problem document the response carried. */
function violations(profile: Profile): SafeHtml | string {
  if (profile.statusCode !== 422) return '';
  const text = dataOf<ResponseData>(profile, 'response')?.body.text;
  let list: { propertyPath?: unknown; message?: unknown }[] = [];
  try {
    const parsed = JSON.parse(text ?? 'null') as { violations?: unknown };
    if (Array.isArray(parsed?.violations)) list = parsed.violations as typeof list;
  } catch {
    return '';
  }
  if (list.length === 0) return '';
  return html`<h3>Validation</h3><table class="pf-table pf-violations"><thead><tr><th>Property</th><th>Violation</th></tr></thead><tbody>${list.map(
    (v) => html`<tr><td class="mono">${String(v.propertyPath ?? '')}</td><td>${String(v.message ?? '')}</td></tr>`,
  )}</tbody></table>`;
}

/** API Platform's view for Trellis: operation, negotiation, the pipeline's stages, filters and conditional requests. */
export const apiPanel: ProfilerPanel = defineProfilerPanel<ApiData>({
  id: 'api',
  label: 'API',
    collect: (request) => apiCollector.collect(request),
badge(data, profile) {
    if (data.resource === null) return null;
    const failed = data.stages.find((s) => s.outcome === 'error');
    return failed ? { text: failed.stage, level: 'error' } : data.negotiation?.format ? { text: data.negotiation.format } : null;
  },
  render(data, profile, ctx) {
    if (data.resource === null) return html`<h2>API</h2><p class="pf-empty">No resource operation ran for this request.</p>`;
    const n = data.negotiation;
    const c = data.conditional;
    return html`<h2>API</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${data.resource}</div><div class="label">Resource</div></div>
<div class="pf-metric"><div class="value mono">${data.operation}</div><div class="label">Operation</div></div>
<div class="pf-metric"><div class="value mono">${n?.format ?? '(none)'}</div><div class="label">Format</div></div></div>
<table class="pf-table pf-operation"><tbody>
<tr><th scope="row">Provider</th><td><code>${data.provider ?? '–'}</code></td></tr>
<tr><th scope="row">Processor</th><td><code>${data.processor ?? '–'}</code></td></tr>
<tr><th scope="row">Input format</th><td><code>${data.inputFormat ?? '(no body)'}</code></td></tr></tbody></table>
<h3>Format negotiation</h3>
${n === null ? html`<p class="pf-empty">No format was negotiated (the request failed before).</p>` : html`<table class="pf-table pf-negotiation"><tbody>
<tr><th scope="row">Media type</th><td><code>${n.mediaType ?? ''}</code></td></tr>
<tr><th scope="row">Decided by</th><td>${n.decidedBy === 'extension' ? html`the path's extension <code>.${n.extension}</code>` : 'the Accept header'}</td></tr>
<tr><th scope="row">Accept</th><td><code>${n.accept ?? '(none: the default format)'}</code></td></tr></tbody></table>`}
<h3>Pipeline</h3>
<table class="pf-table pf-stages"><thead><tr><th>Stage</th><th>Start</th><th>Time</th><th>Outcome</th></tr></thead><tbody>${data.stages.map(
      (s) => html`<tr class="${s.outcome}"><td class="mono">${STAGE_NAMES[s.stage] ?? s.stage}</td><td class="mono">${ms(s.startMs)}</td><td class="mono">${s.outcome === 'skipped' ? '' : ms(s.durationMs)}</td><td>${s.outcome}</td></tr>`,
    )}</tbody></table>
${keyValueTable('Filters, order and pagination, as sent', data.query)}
${parsed(data, ctx)}
${input(profile)}
${violations(profile)}
<h3>Conditional request</h3>
<table class="pf-table pf-conditional"><tbody>
<tr><th scope="row">If-None-Match</th><td><code>${c.ifNoneMatch ?? '(none)'}</code></td></tr>
<tr><th scope="row">If-Match</th><td><code>${c.ifMatch ?? '(none)'}</code></td></tr>
<tr><th scope="row">ETag sent</th><td><code>${c.etag ?? '(none)'}</code></td></tr>
<tr><th scope="row">Outcome</th><td>${c.outcome ?? 'no condition decided the answer'}</td></tr></tbody></table>`;
  },
});
