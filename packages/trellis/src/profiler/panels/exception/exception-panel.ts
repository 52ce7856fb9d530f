import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { exceptionCollector } from './exception-collector.ts';
import { html } from '../../../html/html.ts';
import { exceptionChainView } from '../../../errors/exception-view.ts';
import type { ExceptionData } from './exception-collector.ts';

export const exceptionPanel: ProfilerPanel = defineProfilerPanel<ExceptionData>({
  id: 'exception',
  label: 'Exception',
    collect: (request) => exceptionCollector.collect(request),
badge(data, profile) {
    const n = data.chain.length;
    return n > 0 ? { text: String(n), level: 'error' } : null;
  },
  render(data, profile, ctx) {
    const chain = data.chain;
    if (chain.length === 0) return html`<h2>Exception</h2><p class="pf-empty">No exception was thrown while handling this request.</p>`;
    return html`<div class="exception-body">${exceptionChainView(chain)}</div>`;
  },
});
