import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { responseCollector } from './response-collector.ts';
import { html } from '../../../html/html.ts';
import type { ResponseData } from './response-collector.ts';
import { statusClass } from '../../ui/layout.ts';
import { bodyView, keyValueTable } from '../../ui/panels/key-value-table.ts';

export const responsePanel: ProfilerPanel = defineProfilerPanel<ResponseData>({
  id: 'response',
  label: 'Response',
    collect: (request) => responseCollector.collect(request),
badge: (_data, profile) => ({ text: String(profile.statusCode), level: profile.statusCode >= 500 ? 'error' : profile.statusCode >= 400 ? 'warn' : undefined }),
  render(data, profile, ctx) {
    return html`<h2>Response</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value"><span class="pf-status ${statusClass(data.statusCode)}">${data.statusCode}</span></div><div class="label">Status</div></div>
<div class="pf-metric"><div class="value mono">${data.contentType ?? '–'}</div><div class="label">Content type</div></div>
<div class="pf-metric"><div class="value">${data.size}</div><div class="label">Bytes</div></div></div>
${keyValueTable('Headers', data.headers)}
${keyValueTable('Cookies', data.cookies)}
${bodyView('Body', data.body)}`;
  },
});
