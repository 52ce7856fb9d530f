import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { requestCollector } from './request-collector.ts';
import { html } from '../../../html/html.ts';
import type { RequestData } from './request-collector.ts';
import { bodyView, keyValueTable } from '../../ui/panels/key-value-table.ts';
import { curlView } from '../../export/curl-view.ts';

export const requestPanel: ProfilerPanel = defineProfilerPanel<RequestData>({
  id: 'request',
  label: 'Request',
    collect: (request) => requestCollector.collect(request),
badge: () => null,
  render(data, profile, ctx) {
    return html`<h2>Request</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${data.method}</div><div class="label">Method</div></div>
<div class="pf-metric"><div class="value mono">${data.route ?? '(no route)'}</div><div class="label">Route</div></div>
<div class="pf-metric"><div class="value">${data.protocol.toUpperCase()} ${data.httpVersion}</div><div class="label">Protocol</div></div></div>
${data.subRequest ? html`<p>This is a sub-request (${data.subRequest.purpose}) of the request it was forwarded from.</p>` : ''}
${keyValueTable('Query parameters', data.query)}
${keyValueTable('Route parameters', data.params)}
${keyValueTable('Headers', data.headers)}
${keyValueTable('Cookies', data.cookies)}
${bodyView('Body', data.body)}
${keyValueTable('Server parameters', data.server)}
${curlView(profile)}`;
  },
});
