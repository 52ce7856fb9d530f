import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { formatMs } from '../../ui/format-duration.ts';
import { eventsCollector } from './events-collector.ts';
import { html } from '../../../html/html.ts';
import type { EventsData } from './events-collector.ts';

const ms = formatMs;

/** Symfony's Events panel for Trellis: the diagnostics-channel events of the request, in order. */
export const eventsPanel: ProfilerPanel = defineProfilerPanel<EventsData>({
  id: 'events',
  label: 'Events',
    collect: (request) => eventsCollector.collect(request),
badge(data, profile) {
    return data && data.events.length > 0 ? { text: String(data.events.length) } : null;
  },
  render(data, profile, ctx) {
    if (data.events.length === 0) return html`<h2>Events</h2><p class="pf-empty">No event was published for this request.</p>`;
    return html`<h2>Events</h2>
<p class="pf-note">${Object.entries(data.channels).map(([channel, n], i) => html`${i > 0 ? ' · ' : ''}<code>${channel}</code> ${n}`)}</p>
<table class="pf-table pf-events"><thead><tr><th>At</th><th>Channel</th><th>Event</th></tr></thead><tbody>${data.events.map(
      (e) => html`<tr><td class="mono">${ms(e.atMs)}</td><td class="mono">${e.channel}</td><td>${e.summary}</td></tr>`,
    )}</tbody></table>`;
  },
});
