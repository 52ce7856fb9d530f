import { html } from '../../../html/html.ts';
import type { ResponseData } from '../../collectors/response-collector.ts';
import { statusClass } from '../layout.ts';
import { bodyView, keyValueTable } from './key-value-table.ts';
import { dataOf, type Panel } from './panel.ts';

export const responsePanel: Panel = {
  name: 'response',
  label: 'Response',
  badge: (profile) => ({ text: String(profile.statusCode), level: profile.statusCode >= 500 ? 'error' : profile.statusCode >= 400 ? 'warn' : undefined }),
  render(profile) {
    const data = dataOf<ResponseData>(profile, 'response');
    if (!data) return html`<h2>Response</h2><p class="pf-empty">No response data was collected.</p>`;
    return html`<h2>Response</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value"><span class="pf-status ${statusClass(data.statusCode)}">${data.statusCode}</span></div><div class="label">Status</div></div>
<div class="pf-metric"><div class="value mono">${data.contentType ?? '–'}</div><div class="label">Content type</div></div>
<div class="pf-metric"><div class="value">${data.size}</div><div class="label">Bytes</div></div></div>
${keyValueTable('Headers', data.headers)}
${keyValueTable('Cookies', data.cookies)}
${bodyView('Body', data.body)}`;
  },
};
