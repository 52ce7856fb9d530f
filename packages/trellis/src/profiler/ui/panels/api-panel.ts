import { html } from '../../../html/html.ts';
import type { ApiData } from '../../collectors/api-collector.ts';
import { keyValueTable } from './key-value-table.ts';
import { dataOf, type Panel } from './panel.ts';

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const STAGE_NAMES: Record<string, string> = { post_denormalize: 'securityPostDenormalize', security: 'security' };

/** API Platform's view for Trellis: operation, negotiation, the pipeline's stages, filters and conditional requests. */
export const apiPanel: Panel = {
  name: 'api',
  label: 'API',
  badge(profile) {
    const data = dataOf<ApiData>(profile, 'api');
    if (!data || data.resource === null) return null;
    const failed = data.stages.find((s) => s.outcome === 'error');
    return failed ? { text: failed.stage, level: 'error' } : data.negotiation?.format ? { text: data.negotiation.format } : null;
  },
  render(profile) {
    const data = dataOf<ApiData>(profile, 'api');
    if (!data || data.resource === null) return html`<h2>API</h2><p class="pf-empty">No resource operation ran for this request.</p>`;
    const n = data.negotiation;
    const c = data.conditional;
    return html`<h2>API</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${data.resource}</div><div class="label">Resource</div></div>
<div class="pf-metric"><div class="value mono">${data.operation}</div><div class="label">Operation</div></div>
<div class="pf-metric"><div class="value mono">${n?.format ?? '(none)'}</div><div class="label">Format</div></div></div>
<h3>Format negotiation</h3>
${n === null ? html`<p class="pf-empty">No format was negotiated (the request failed before).</p>` : html`<table class="pf-table pf-negotiation"><tbody>
<tr><th scope="row">Media type</th><td><code>${n.mediaType ?? ''}</code></td></tr>
<tr><th scope="row">Decided by</th><td>${n.decidedBy === 'extension' ? html`the path's extension <code>.${n.extension}</code>` : 'the Accept header'}</td></tr>
<tr><th scope="row">Accept</th><td><code>${n.accept ?? '(none: the default format)'}</code></td></tr></tbody></table>`}
<h3>Pipeline</h3>
<table class="pf-table pf-stages"><thead><tr><th>Stage</th><th>Start</th><th>Time</th><th>Outcome</th></tr></thead><tbody>${data.stages.map(
      (s) => html`<tr class="${s.outcome}"><td class="mono">${STAGE_NAMES[s.stage] ?? s.stage}</td><td class="mono">${ms(s.startMs)}</td><td class="mono">${s.outcome === 'skipped' ? '' : ms(s.durationMs)}</td><td>${s.outcome}</td></tr>`,
    )}</tbody></table>
${keyValueTable('Filters, order and pagination', data.query)}
<h3>Conditional request</h3>
<table class="pf-table pf-conditional"><tbody>
<tr><th scope="row">If-None-Match</th><td><code>${c.ifNoneMatch ?? '(none)'}</code></td></tr>
<tr><th scope="row">If-Match</th><td><code>${c.ifMatch ?? '(none)'}</code></td></tr>
<tr><th scope="row">ETag sent</th><td><code>${c.etag ?? '(none)'}</code></td></tr>
<tr><th scope="row">Outcome</th><td>${c.outcome ?? 'no condition decided the answer'}</td></tr></tbody></table>`;
  },
};
