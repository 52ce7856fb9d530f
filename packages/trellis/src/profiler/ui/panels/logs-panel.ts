import { html } from '../../../html/html.ts';
import { logsView } from '../../../errors/exception-view.ts';
import type { LogsData } from '../../collectors/logs-collector.ts';
import { dataOf, type Panel } from './panel.ts';

export const logsPanel: Panel = {
  name: 'logs',
  label: 'Logs',
  badge(profile) {
    const data = dataOf<LogsData>(profile, 'logs');
    if (!data || data.records.length === 0) return null;
    const errors = (data.levels.error ?? 0) + (data.levels.fatal ?? 0);
    if (errors > 0) return { text: String(errors), level: 'error' };
    const warnings = data.levels.warn ?? 0;
    return warnings > 0 ? { text: String(warnings), level: 'warn' } : { text: String(data.records.length) };
  },
  render(profile) {
    const data = dataOf<LogsData>(profile, 'logs');
    return html`<div class="exception-body">${logsView(data?.records ?? [])}</div>`;
  },
};
