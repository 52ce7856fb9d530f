import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { logsCollector } from './logs-collector.ts';
import { html } from '../../../html/html.ts';
import { logsView } from '../../../errors/exception-view.ts';
import type { LogsData } from './logs-collector.ts';

export const logsPanel: ProfilerPanel = defineProfilerPanel<LogsData>({
  id: 'logs',
  label: 'Logs',
    collect: (request) => logsCollector.collect(request),
badge(data, profile) {
    if (data.records.length === 0) return null;
    const errors = (data.levels.error ?? 0) + (data.levels.fatal ?? 0);
    if (errors > 0) return { text: String(errors), level: 'error' };
    const warnings = data.levels.warn ?? 0;
    return warnings > 0 ? { text: String(warnings), level: 'warn' } : { text: String(data.records.length) };
  },
  render(data, profile, ctx) {
    const records = data.records ?? [];
    // Filters are plain GET parameters (a form, no script): ?panel=logs&level=error&channel=request.
    const level = ctx.params?.level ?? '';
    const channel = ctx.params?.channel ?? '';
    const shown = records.filter((r) => (level === '' || r.level === level) && (channel === '' || r.channel === channel));
    const levels = [...new Set(records.map((r) => r.level))];
    const channels = [...new Set(records.map((r) => r.channel))].sort();
    const count = (pick: (r: (typeof records)[number]) => boolean) => records.filter(pick).length;
    return html`<div class="exception-body">
${records.length === 0 ? '' : html`<p class="pf-log-counts">${levels.map((l, i) => html`${i > 0 ? ' · ' : ''}<span class="level-${l}">${l} ${count((r) => r.level === l)}</span>`)}</p>
<form class="pf-log-filter" method="get"><input type="hidden" name="panel" value="logs">
<label>Level <select name="level"><option value="">all</option>${levels.map((l) => html`<option value="${l}"${l === level ? html` selected` : ''}>${l}</option>`)}</select></label>
<label>Channel <select name="channel"><option value="">all</option>${channels.map((c) => html`<option value="${c}"${c === channel ? html` selected` : ''}>${c} (${count((r) => r.channel === c)})</option>`)}</select></label>
<button type="submit">Filter</button>${shown.length < records.length ? html` <span class="pf-note">${shown.length} of ${records.length} shown</span>` : ''}</form>`}
${logsView(shown)}</div>`;
  },
});
