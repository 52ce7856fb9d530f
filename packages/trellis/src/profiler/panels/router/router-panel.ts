import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { routerCollector } from './router-collector.ts';
import { html } from '../../../html/html.ts';
import type { RouterData } from './router-collector.ts';
import { keyValueTable } from '../../ui/panels/key-value-table.ts';

const LEVELS = { match: 'Matches', method: 'Path matches', none: 'No match' } as const;

/** Symfony's Routing panel for Trellis: the matched route, or the routes tried for a 404/405, closest first. */
export const routerPanel: ProfilerPanel = defineProfilerPanel<RouterData>({
  id: 'router',
  label: 'Routing',
    collect: (request) => routerCollector.collect(request),
badge(data, profile) {
    return data.trace ? { text: data.statusCode === 405 ? 'method' : 'no route', level: 'warn' } : null;
  },
  render(data, profile, ctx) {
    const matched = data.trace === null && data.route !== null;
    const methods = data.methods ?? (matched && data.path !== null ? (ctx.allowedMethods?.(data.path) ?? null) : null);
    return html`<h2>Routing</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value mono">${matched ? data.route : data.statusCode === 405 ? 'Method not allowed' : 'No route'}</div><div class="label">${matched ? 'Matched route' : 'Result'}</div></div>
<div class="pf-metric"><div class="value mono">${data.method}</div><div class="label">Method</div></div>
<div class="pf-metric"><div class="value mono">${methods ? methods.join(', ') : '(none)'}</div><div class="label">Allowed on this path</div></div></div>
${data.path !== null ? html`<p class="pf-note">Path as routed: <code>${data.path}</code></p>` : ''}
${keyValueTable('Route parameters', data.params)}
${data.trace === null ? '' : html`<h3>Routes tried <small class="pf-note">closest first${data.omitted > 0 ? `, ${data.omitted} more not listed` : ''}</small></h3>
<table class="pf-table pf-route-trace"><thead><tr><th>Route</th><th>Methods</th><th>Result</th></tr></thead><tbody>${data.trace.map(
      (e) => html`<tr class="${e.level}"><td class="mono">${e.path}</td><td class="mono">${e.methods.join(', ')}</td><td><strong>${LEVELS[e.level]}</strong> <span class="pf-note">${e.why}</span></td></tr>`,
    )}</tbody></table>`}`;
  },
});
