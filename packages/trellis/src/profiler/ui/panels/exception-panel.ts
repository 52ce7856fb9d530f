import { html } from '../../../html/html.ts';
import { exceptionChainView } from '../../../errors/exception-view.ts';
import type { ExceptionData } from '../../collectors/exception-collector.ts';
import { dataOf, type Panel } from './panel.ts';

export const exceptionPanel: Panel = {
  name: 'exception',
  label: 'Exception',
  badge(profile) {
    const n = dataOf<ExceptionData>(profile, 'exception')?.chain.length ?? 0;
    return n > 0 ? { text: String(n), level: 'error' } : null;
  },
  render(profile) {
    const chain = dataOf<ExceptionData>(profile, 'exception')?.chain ?? [];
    if (chain.length === 0) return html`<h2>Exception</h2><p class="pf-empty">No exception was thrown while handling this request.</p>`;
    return html`<div class="exception-body">${exceptionChainView(chain)}</div>`;
  },
};
