import { stagesOf } from '../../api-record.ts';
import { formatMs } from '../../ui/format-duration.ts';
import type { DataCollector } from '../../data-collector.ts';
import { ellipsis } from '../../../logging/cut-string.ts';

export interface EventData {
  /** When it was published, in ms from the request's start. */
  readonly atMs: number;
  /** The diagnostics channel it was published on. */
  readonly channel: string;
  readonly summary: string;
}

export interface EventsData {
  readonly events: readonly EventData[];
  /** Events per channel. */
  readonly channels: Readonly<Record<string, number>>;
}

const ms = formatMs;

/**
 * The request's diagnostics-channel events in the order they were published (Symfony's Events
 * panel, where Node has channels instead of listeners): lifecycle phases, security, resource
 * stages, queries, outgoing calls and log records, each summarised. Built from what the profile
 * already holds: nothing more is recorded for it.
 */
export const eventsCollector: DataCollector<EventsData> = {
  name: 'events',
  collect(ctx) {
    const events: EventData[] = [];
    const { names, atUs } = ctx.marks;
    names.forEach((name, i) => events.push({ atMs: atUs[i]! / 1000, channel: 'trellis:phase', summary: name }));
    for (const r of ctx.security ?? []) {
      if (r.kind === 'authentication') events.push({ atMs: r.atMs, channel: 'trellis:security:authentication', summary: `${r.authenticator}: ${r.outcome}${r.user ? ` (${r.user})` : ''}${r.reason ? `: ${r.reason}` : ''}` });
      else if (r.kind === 'vote') events.push({ atMs: r.atMs, channel: 'trellis:security:vote', summary: `${r.voter}: ${r.vote} ${r.attribute}${r.subject ? ` on ${r.subject}` : ''}` });
      else events.push({ atMs: r.atMs, channel: 'trellis:security:decision', summary: `${r.stage} ${r.attribute}: ${r.granted ? 'granted' : 'denied'}` });
    }
    const api = ctx.api;
    const stages = stagesOf(api);
    if (api?.negotiation) {
      const negotiate = stages.find((s) => s.stage === 'negotiate');
      events.push({ atMs: negotiate ? negotiate.startMs + negotiate.durationMs : 0, channel: 'trellis:negotiate', summary: `${api.negotiation.format} (${api.negotiation.mediaType})` });
    }
    for (const s of stages) events.push({ atMs: s.startMs + s.durationMs, channel: 'trellis:resource:stage', summary: `${api!.resource} ${api!.operation}: ${s.stage} ${s.outcome}${s.outcome === 'skipped' ? '' : ` (${ms(s.durationMs)})`}` });
    for (const q of ctx.queries ?? []) events.push({ atMs: q.atMs + q.durationMs, channel: 'trellis:db:query', summary: `${ellipsis(q.sql, 120)} (${ms(q.durationMs)})` });
    for (const c of ctx.httpCalls ?? []) events.push({ atMs: c.atMs, channel: 'undici:request:create', summary: `${c.method} ${c.url}` });
    for (const l of ctx.logs) events.push({ atMs: Math.max(0, l.time - ctx.startTime), channel: 'trellis:log', summary: `${l.level} ${l.channel}: ${ellipsis(l.message, 160)}` });
    if (ctx.exception.length > 0) events.push({ atMs: ctx.durationMs, channel: 'trellis:error', summary: `${ctx.exception[0]!.class}: ${ctx.exception[0]!.message}` });
    // Stable: events of the same instant keep the order above (publication order within a kind).
    const order = new Map(events.map((e, i) => [e, i]));
    events.sort((a, b) => a.atMs - b.atMs || order.get(a)! - order.get(b)!);
    const channels: Record<string, number> = {};
    for (const e of events) channels[e.channel] = (channels[e.channel] ?? 0) + 1;
    // URLs, messages and reasons may quote a secret: the profile's redaction scrubs them.
    const { redaction } = ctx;
    redaction.learnRequest(ctx.request);
    return redaction.scrub({ events: events.map((e) => ({ ...e, summary: e.channel === 'undici:request:create' ? redaction.url(e.summary) : e.summary })), channels });
  },
};
