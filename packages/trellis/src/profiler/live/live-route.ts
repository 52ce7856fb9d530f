import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import { fromStore } from '../from-store.ts';
import type { ProfileSummary } from '../profile.ts';
import type { ProfileStorage } from '../storage/profile-storage.ts';
import { isToken } from '../token.ts';
import { formatTime } from '../ui/format-time.ts';
import { PROFILER_PAGE_HEADERS } from '../ui/layout.ts';
import { livePage, LIVE_PAGE_HEADERS } from '../ui/pages/live-page.ts';
import type { ProfileFeed } from './profile-feed.ts';
import { liveScript } from './live-script.ts';
import { LiveStreams, sseEvent } from './live-streams.ts';
import { pageHeadersHook } from '../page-headers-hook.ts';

export interface LiveRouteOptions {
  readonly storage: ProfileStorage;
  readonly feed: ProfileFeed;
  readonly timeZone: string;
  /** Most event streams open at once (8 by default). */
  readonly maxStreams?: number;
  /** Heartbeat interval of the event streams (15 s by default). */
  readonly heartbeatMs?: number;
  /** Resolves once what was recorded so far is stored: a resumed stream reads it from the store. */
  readonly settled?: () => Promise<void>;
}

/**
 * The stream's head (hijacked: no onSend hook adds the profiler's headers). `no-cache` and
 * `X-Accel-Buffering: no` keep proxies (nginx) from holding events back.
 */
const LIVE_STREAM_HEADERS = {
  ...PROFILER_PAGE_HEADERS,
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, private',
  'x-robots-tag': 'noindex',
  'x-accel-buffering': 'no',
};

/** Events a reconnecting client is sent from before it reconnected (Last-Event-ID), at most. */
const RESUME_LIMIT = 100;
/** Reconnection delay EventSource is told to use (the `retry:` field), in ms. */
const RETRY_MS = 2000;

/**
 * The live view: `GET /_profiler/live` (the page), `GET /_profiler/live/events` (main requests as
 * they finish, as server-sent events: HTML Living Standard §9.2) and `GET /_profiler/live.js`
 * (the page's script: the profiler's CSP allows no inline script). `page` carries the gate and
 * `unprofiled`: neither the page nor its stream is profiled, or each row would make another.
 */
export function liveRoute(app: FastifyInstance, page: RouteShorthandOptions, options: LiveRouteOptions): void {
  const { storage, feed, timeZone } = options;
  const max = options.maxStreams ?? 8;
  const streams = new LiveStreams({ max, heartbeatMs: options.heartbeatMs ?? 15_000 });
  // preClose runs before the server stops accepting and waits for open requests: a stream left
  // open would keep `app.close()` waiting for the browser tab.
  app.addHook('preClose', (done) => {
    streams.close();
    done();
  });
  app.addHook('onClose', async () => feed.close());

  const eventOf = (s: ProfileSummary) => sseEvent(s.token, { ...s, formattedTime: formatTime(s.time, timeZone), link: `/_profiler/${s.token}` });
  // The page's own policy (its script and stream).
  const gate = (page.config as { readonly gate?: (request: FastifyRequest) => boolean } | undefined)?.gate ?? (() => true);
  const liveHeaders = pageHeadersHook(LIVE_PAGE_HEADERS, gate);

  app.get('/_profiler/live', { ...page, onSend: liveHeaders }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(livePage()));
  app.get('/_profiler/live.js', page, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(liveScript));

  // No HEAD twin: a HEAD request would hold a stream open with nothing to send.
  app.get('/_profiler/live/events', { ...page, exposeHeadRoute: false }, async (request, reply) => {
    const busy = () => HttpError.of('profiler_live_busy', { max }, { headers: { 'retry-after': '10' } });
    if (streams.full) throw busy();
    // Until the backlog of a resumed stream is written, live events wait here (then skip what it held).
    let waiting: ProfileSummary[] | null = [];
    const response = reply.raw;
    const deliver = (summaries: readonly ProfileSummary[]) => {
      const main = summaries.filter((s) => s.parent === null);
      if (waiting) waiting.push(...main);
      else if (main.length > 0) streams.write(response, main.map(eventOf).join(''));
    };
    const unsubscribe = await fromStore(() => feed.subscribe(deliver));
    // Others may have opened while this one waited for the feed: the bound is checked again
    // where nothing awaits between the check and the stream's counting.
    if (streams.full) {
      unsubscribe();
      throw busy();
    }
    reply.hijack();
    // The client may have left while the feed was being joined: its 'close' has already fired.
    if (response.destroyed || request.raw.destroyed) return void unsubscribe();
    response.writeHead(200, LIVE_STREAM_HEADERS);
    streams.add(response, unsubscribe);
    // The stream is open (and the feed attached) once this comment arrives: what finishes after it is sent.
    streams.write(response, `retry: ${RETRY_MS}\n: connected\n\n`);
    const backlog = await resumeFrom(request.headers['last-event-id']).catch(() => []);
    const sent = new Set(backlog.map((s) => s.token));
    const held = waiting.filter((s) => !sent.has(s.token));
    waiting = null;
    const text = [...backlog, ...held].map(eventOf).join('');
    if (text !== '') streams.write(response, text);
  });

  /**
   * What was stored after the event a reconnecting client saw last (its `Last-Event-ID`, a
   * token), oldest first: what the newest RESUME_LIMIT main requests from its time on hold after
   * it (same-millisecond profiles are listed in write order). An unknown token sends nothing.
   */
  async function resumeFrom(lastId: unknown): Promise<ProfileSummary[]> {
    if (typeof lastId !== 'string' || !isToken(lastId)) return [];
    // This process's feed publishes as requests are handed on to be stored: wait for them.
    await options.settled?.();
    const [last] = await storage.find({ token: lastId, limit: 1 });
    if (!last) return [];
    const since = (await storage.find({ start: last.time, mainOnly: true, limit: RESUME_LIMIT })).reverse();
    const at = since.findIndex((s) => s.token === lastId);
    return at === -1 ? since : since.slice(at + 1);
  }
}
