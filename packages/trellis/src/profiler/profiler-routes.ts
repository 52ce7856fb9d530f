import type { AppFacts } from './app-facts.ts';
import { describeQuery } from './describe-query.ts';
import { harRoute } from './export/har-route.ts';
import { copyScriptRoute } from './export/copy-script-route.ts';
import { cpuProfileRoute } from './export/cpu-profile-route.ts';
import { explainHref, explainRoute, type ExplainOptions } from './explain/explain-route.ts';
import { compareRoute } from './compare/compare-route.ts';
import { MCP_NAME, mcpRoute } from './mcp/mcp-route.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../html/html.ts';
import { exceptionCss } from '../errors/exception-css.ts';
import { exceptionView } from '../errors/exception-view.ts';
import { HttpError } from '../kernel/http-error.ts';
import { errorCodes } from '../kernel/error-codes.ts';
import type { LogRecord } from '../logging/log-record.ts';
import type { ExceptionData } from './panels/exception/exception-collector.ts';
import type { LogsData } from './panels/logs/logs-collector.ts';
import type { Profile, ProfileSummary } from './profile.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { readableProfile } from './readable-profile.ts';
import { fromStore } from './from-store.ts';
import { isToken } from './token.ts';
import { liveRoute, type LiveRouteOptions } from './live/live-route.ts';
import { pinForm, purgeForm } from './pins/pin-form.ts';
import { pinRoute } from './pins/pin-route.ts';
import type { ProfilerCsrf } from './pins/profiler-csrf.ts';
import { purgeRoute } from './pins/purge-route.ts';
import { formatTime } from './ui/format-time.ts';
import { PROFILER_PAGE_HEADERS } from './ui/layout.ts';
import { profilePage } from './ui/pages/profile-page.ts';
import { notRecordedMessage, searchPage } from './ui/pages/search-page.ts';
import { panelNotFoundPage, tokenNotFoundPage } from './ui/pages/token-not-found-page.ts';
import { toolbarRoute } from './toolbar/toolbar-route.ts';
import { pageHeadersHook } from './page-headers-hook.ts';
import { themeRoute } from './theme/theme-route.ts';
import type { Panel } from './ui/panels/panel.ts';
import { dataOf } from './ui/panels/panel.ts';
import { searchBar } from './ui/search-bar.ts';
import { searchHref, searchParams, toProfileQuery } from './ui/search-params.ts';

export interface ProfilerRoutesOptions {
  readonly storage: ProfileStorage;
  /** The profile of a token, built if it was stored as its snapshot. */
  readonly read: (token: string) => Promise<Profile | null>;
  /** Resolves once every profile queued so far is stored: pages read their own writes. */
  readonly settled: () => Promise<void>;
  readonly panels: readonly Panel[];
  readonly timeZone: string;
  /** The running app's facts, for the Configuration panel (computed when first asked). */
  readonly app?: () => AppFacts;
  /** EXPLAIN for the Database panel's SELECTs (explain/explain-route.ts). */
  readonly explain?: ExplainOptions;
  /** Who may open the profiler (access-gate.ts); every route carries it (see `guarded`). */
  readonly mayOpen: (request: FastifyRequest) => boolean;
  /** Requests not recorded since start (the sink's backlog was full, or the store failed). */
  readonly dropped?: () => number;
  /** The live view (live/live-route.ts); absent, it is not served. */
  readonly live?: LiveRouteOptions;
  /** Pin, unpin and purge forms and their routes (pins/); absent, none is shown or served. */
  readonly csrf?: ProfilerCsrf;
}

const HTML = 'text/html; charset=utf-8';

/**
 * The profiler's routes (seed section 4; GET, and HEAD through Fastify's exposed HEAD routes):
 * `/_profiler/<token>` (or `latest`) and `.json`, `.har` and `.cpuprofile` (export/), the copy
 * buttons' `/_profiler/copy.js`, `/_profiler/<token>/exception`,
 * `/_profiler/<token>/exception.css`, `/_profiler/search_bar`, `/_profiler/search` and
 * `search.json`, and `/_profiler/` (the latest 10); from their own files, EXPLAIN, the live view
 * (live/live-route.ts) and the pin and purge forms (pins/).
 */
export function profilerRoutes(app: FastifyInstance, options: ProfilerRoutesOptions): void {
  const { storage, read, timeZone, explain } = options;
  // The gate is on each route, not on a URL pattern: it decides on exactly what the router
  // matched, however the client spelled it (`/%5Fprofiler`, absolute form). A route-level
  // onRequest runs after the app's, once the guard phase has settled the client address.
  // `config.gate` also makes the route map answer 404, not 405, for its other methods.
  // Refused, it answers through the app's not-found handler: the same 404 as a path that does not
  // exist (the route map's gate turns what would be a 405 into that 404 too). From a fresh stack,
  // so a debug trace shows no frame of this file.
  const refuse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (options.mayOpen(request)) done();
    else process.nextTick(reply.callNotFound.bind(reply));
  };
  // Every answer of the profiler carries its page headers (CSP, no framing, no referrer), and is
  // neither cached by shared caches nor indexed (as Symfony's profiler answers).
  // A page also gets the theme its reader picked (theme/profiler-theme.ts).
  const headers = pageHeadersHook(PROFILER_PAGE_HEADERS, options.mayOpen);
  const page = { config: { gate: options.mayOpen, unprofiled: true }, onRequest: refuse, onSend: headers };
  // Symfony profiles these two (they carry an X-Debug-Token of their own).
  const profiled = { config: { gate: options.mayOpen }, onRequest: refuse, onSend: headers };

  /** `latest` is the newest main request: its sub-requests are reached from its page. */
  const load = (token: string) => fromStore(() => loadProfile(token));
  /** As stored (a JSON body as sent, not indented): what the exports hand on. */
  const loadStored = (token: string) => fromStore(() => loadProfile(token, false));
  async function loadProfile(token: string, readable = true): Promise<Profile | null> {
    await options.settled();
    let profile: Profile | null = null;
    if (token === 'latest') {
      const [newest] = await storage.find({ mainOnly: true, limit: 1 });
      if (newest) profile = await read(newest.token);
    } else if (isToken(token)) profile = await read(token);
    return profile && (readable ? readableProfile(profile) : profile);
  }

  const summaryJson = (s: ProfileSummary) => ({ ...s, formattedTime: formatTime(s.time, timeZone), link: `/_profiler/${s.token}` });

  async function listing(request: FastifyRequest, reply: FastifyReply) {
    const params = searchParams(request.query);
    const query = toProfileQuery(params);
    if (params.token !== '') return reply.redirect(`/_profiler/${encodeURIComponent(params.token)}`, 302);
    const found = await fromStore(async () => (await options.settled(), storage.find(query)));
    const csrf = options.csrf;
    // Back to this listing, however it was spelled (Symfony's URL included): the search's own URL.
    const back = searchHref(params);
    const pins = csrf && { row: (s: ProfileSummary) => pinForm(csrf, s.token, s.pinned === true, back), purge: purgeForm(csrf, back) };
    return reply.type(HTML).send(searchPage(found, params, timeZone, options.dropped?.() ?? 0, pins, (path) => app.trellis?.routes.patternOf(path) ?? null));
  }
  app.get('/_profiler', page, listing);
  app.get('/_profiler/', page, listing);
  app.get('/_profiler/search', page, listing);
  // Symfony's listing URL (`/_profiler/empty/search/results?…`, any token): bookmarks carry over.
  app.get('/_profiler/:token/search/results', page, listing);

  app.get('/_profiler/search.json', page, async (request) => {
    const query = toProfileQuery(searchParams(request.query));
    const results = await fromStore(async () => (await options.settled(), storage.find(query)));
    const dropped = options.dropped?.() ?? 0;
    return { count: results.length, results: results.map(summaryJson), notRecorded: { count: dropped, message: notRecordedMessage(dropped) } };
  });

  app.get('/_profiler/search_bar', page, async (request, reply) => reply.type(HTML).send(searchBar(searchParams(request.query)).toString()));

  const postOnly = new Set([MCP_NAME, ...(options.csrf ? ['purge'] : [])]);
  app.get<{ Params: { token: string }; Querystring: Record<string, unknown> & { panel?: string } }>('/_profiler/:token', page, async (request, reply) => {
    // GET and HEAD of the POST-only endpoints (MCP, purge) land here, the router having no GET
    // route at their paths. MCP streamable HTTP (2025-03-26, "Listening for Messages from the
    // Server"): a server that offers no SSE stream there MUST answer 405; the purge form's URL is
    // no profile either (RFC 9110 §15.5.6). The not-found handler gives the 405 (with Allow) their
    // other methods get; the gate above has already refused whom it refuses.
    if (postOnly.has(request.params.token)) return reply.callNotFound();
    const asJson = request.params.token.endsWith('.json');
    const token = asJson ? request.params.token.slice(0, -'.json'.length) : request.params.token;
    const profile = await load(token);
    if (asJson) {
      if (!profile) throw HttpError.of('profiler_token_not_found', { token });
      return {
        ...profile,
        formattedTime: formatTime(profile.time, timeZone),
        links: { html: `/_profiler/${profile.token}`, parent: profile.parent && `/_profiler/${profile.parent}`, children: profile.children.map((c) => `/_profiler/${c}`) },
      };
    }
    if (!profile) return reply.code(404).type(HTML).send(tokenNotFoundPage(token));
    const panel = typeof request.query.panel === 'string' && request.query.panel !== '' ? request.query.panel : undefined;
    if (panel !== undefined && !options.panels.some((p) => p.name === panel)) return reply.code(404).type(HTML).send(panelNotFoundPage(profile.token, panel, options.panels));
    const pin = options.csrf && pinForm(options.csrf, profile.token, profile.pinned === true, request.url);
    return reply.type(HTML).send(profilePage(profile, options.panels, panel, pin, { timeZone, params: stringParams(request.query), allowedMethods: (path: string) => app.trellis?.routes.allowedMethods(path) ?? null, describeQuery: (resource: string, operation: string, query: Readonly<Record<string, unknown>>) => describeQuery(app, resource, operation, query), ...(options.app ? { app: options.app } : {}), ...(explain ? { explainHref: (t: string, n: number, sql: string) => explainHref(explain.signer, t, n, sql) } : {}) }));
  });

  app.get<{ Params: { token: string } }>('/_profiler/:token/exception', profiled, async (request, reply) => {
    const { token } = request.params;
    const profile = await load(token);
    if (!profile) return reply.code(404).type(HTML).send(html`<p class="empty">${errorCodes.profiler_token_not_found.message({ token })}</p>`.toString());
    const chain = dataOf<ExceptionData>(profile, 'exception')?.chain ?? [];
    const logs = (dataOf<LogsData>(profile, 'logs')?.records ?? []) as LogRecord[];
    if (chain.length === 0) return reply.type(HTML).send(html`<div class="exception-body"><p class="empty">No exception was thrown while handling this request.</p></div>`.toString());
    return reply.type(HTML).send(exceptionView(chain, logs).toString());
  });

  app.get('/_profiler/:token/exception.css', profiled, async (_request, reply) => reply.type('text/css; charset=utf-8').send(exceptionCss));

  if (options.explain) explainRoute(app, page, load, options.explain);
  toolbarRoute(app, page, load, options.panels);
  themeRoute(app, page);
  compareRoute(app, page, load, timeZone);
  mcpRoute(app, page, { find: (query) => fromStore(async () => (await options.settled(), storage.find(query))), read: load, close: async () => {} });
  if (options.live) liveRoute(app, page, options.live);
  if (options.csrf) pinRoute(app, page, { storage, csrf: options.csrf, settled: options.settled });
  if (options.csrf) purgeRoute(app, page, { storage, csrf: options.csrf, settled: options.settled });
  harRoute(app, page, loadStored);
  copyScriptRoute(app, page);
  cpuProfileRoute(app, page, loadStored);

}

/** The page's query parameters that are single strings (a repeated or nested one is ignored). */
function stringParams(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(query ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length <= 200));
}
