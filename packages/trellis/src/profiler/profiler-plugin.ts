import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';
import { accessGate } from './access-gate.ts';
import { requestHost, sentHost } from '../kernel/request-origin.ts';
import { rebindingGuard } from './rebinding-guard.ts';
import type { Kysely } from 'kysely';
import { ExplainSigner } from './explain/explain-signer.ts';
import { isProfilerPanel, type ProfilerPanel } from './define-profiler-panel.ts';
import { appFacts, type AppFacts } from './app-facts.ts';
import { defaultCollectors } from './panels/default-collectors.ts';
import type { DataCollector } from './data-collector.ts';
import { InProcessProfileSink } from './in-process-profile-sink.ts';
import { keepPolicy } from './keep-policy.ts';
import { recordProfiles } from './profile-recorder.ts';
import type { ProfileSink } from './profile-sink.ts';
import { profilerRoutes } from './profiler-routes.ts';
import { isThreadLocal, openProfileStorage } from './storage/open-profile-storage.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { ThreadProfileSink } from './thread-profile-sink.ts';
import { issuedTokensKnown, TokenIssuer } from './token.ts';
import { toolbarInjection } from './toolbar/toolbar-injection.ts';
import { observeSqlite } from '../data/observe-sqlite.ts';
import { defaultPanels } from './panels/default-panels.ts';
import type { Panel } from './ui/panels/panel.ts';
import type { Profile } from './profile.ts';
import { readStoredProfile } from './profile-source.ts';
import { FeedingSink } from './live/feeding-sink.ts';
import { LocalProfileFeed } from './live/local-profile-feed.ts';
import type { LiveRouteOptions } from './live/live-route.ts';
import { ProfilerCsrf } from './pins/profiler-csrf.ts';
import { settledWithin } from './settled-within.ts';

/** Slots of the token space for processes sharing a store: 16, the first hex digit of a token. */
const ISSUER_SLOT_BITS = 4;
const ISSUER_SLOTS = 1 << ISSUER_SLOT_BITS;

export interface ProfilerPluginOptions {
  readonly config: TrellisConfig;
  /** A store to use instead of the one `PROFILER_DSN` names (tests, benchmarks). Not closed by the app. */
  readonly storage?: ProfileStorage;
  /**
   * Collectors added after the default ones. They run on the request thread after the response
   * is sent; the built-in ones run where profiles are built (the profiler thread for a store named
   * by `PROFILER_DSN`).
   */
  readonly collectors?: readonly DataCollector[];
  /**
   * Panels added after the default ones. A panel made with `defineProfilerPanel` brings its
   * collector along (run like `collectors`).
   */
  readonly panels?: readonly (Panel | ProfilerPanel)[];
  /** The app's database, for EXPLAIN from the Database panel (createApp passes its own). */
  readonly database?: unknown;
  /** IANA time zone for displayed times; UTC by default. */
  readonly timeZone?: string;
  /** The live view's bounds: most event streams open at once, heartbeat interval (tests). */
  readonly live?: Pick<LiveRouteOptions, 'maxStreams' | 'heartbeatMs'>;
}

/** What the profiler exposes on the app (`app.profiler`), for tests, benchmarks and tools. */
export interface ProfilerHandle {
  readonly storage: ProfileStorage;
  /** The stored profile of a token (built now if it was stored as its snapshot), or null. */
  read(token: string): Promise<Profile | null>;
  /** Resolves once every profile queued so far is stored. */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The request profiler; present in the debug configuration only. */
    profiler?: ProfilerHandle;
  }
}

/**
 * The request profiler (debug configuration only; `createApp` does not register it otherwise).
 * Records every request and its sub-requests as profiles (profile-recorder.ts), stores them after
 * the response is sent, and serves the profiler's pages to loopback clients and `PROFILER_ALLOW`.
 */
export const profilerPlugin = fp(
  async (app: FastifyInstance, opts: ProfilerPluginOptions) => {
    const { config } = opts;
    const settings = config.profiler;
    // The app's own node:sqlite queries (outside Kysely) reach the Database panel too; before the
    // store opens, so the profiler's own statements are known as such.
    observeSqlite();
    // Pages wait at most 2 s for queued profiles (settled-within.ts) and 1 s for each read.
    const storage = opts.storage ?? (await openProfileStorage(settings.dsn, settings, { commandTimeoutMs: 1000 }));
    const issuer = new TokenIssuer(issuedTokensKnown(settings.maxProfiles));
    try {
      issuer.seed(await storage.tokens(settings.maxProfiles));
    } catch (error) {
      // A store that cannot answer now must not stop the app: a clash is caught when writing.
      app.log.error({ err: error, channel: 'profiler' }, `The profiler could not read the stored tokens: ${(error as Error)?.message}`);
    }
    // Processes sharing the store draw tokens from slots of their own: each knows only the tokens
    // stored when it started and those it issued, so they drew each other's (token.ts).
    try {
      let claimed = false;
      await storage.claimIssuerSlot?.(ISSUER_SLOTS, (slot) => {
        issuer.partition(slot, ISSUER_SLOT_BITS);
        // A slot claimed later (the first lost, or none free at startup) may hold tokens other
        // processes stored: they are read again, as at startup.
        if (claimed && slot !== null) void storage.tokens(settings.maxProfiles).then((tokens) => issuer.seed(tokens), () => undefined);
        claimed = true;
      });
    } catch (error) {
      app.log.warn({ err: error, channel: 'profiler' }, `The profiler could not claim a token slot in its store: ${(error as Error)?.message}`);
    }
    const build = { maxBodyBytes: settings.maxBodyBytes, redactKeys: settings.redactKeys };
    // A store named by its DSN is opened a second time by the profiler thread, which builds and
    // writes the profiles; this thread's copy serves the pages. A store no other thread can open
    // (memory:, sqlite::memory:, or an object handed in) is written here, off the response path.
    const stored: ProfileSink =
      opts.storage || isThreadLocal(settings.dsn)
        ? new InProcessProfileSink(storage, app.log, issuer, { ...build, collectors: defaultCollectors })
        : new ThreadProfileSink({ ...build, dsn: settings.dsn, retention: { maxProfiles: settings.maxProfiles, ttlSeconds: settings.ttlSeconds } }, app.log, settings.maxBacklogBytes);
    const gate = accessGate(settings.allow);
    // The client's address, and a Host no rebound DNS name can fake (rebinding-guard.ts).
    const safeHost = rebindingGuard(config.trustedHosts);
    // Every name the request carries must pass: the Host the client sent (a rebound page sets it
    // to its own name) and, from a trusted proxy, X-Forwarded-Host, which a rebound page may also
    // set (same-origin, no preflight) to "localhost" while its Host says evil.example.
    const mayOpen = (request: FastifyRequest) => gate(request.clientIp) && safeHost(requestHost(request)) && safeHost(sentHost(request));
    // The live view's feed: a shared store's (Redis: every process writing to it), else this
    // process's, published where snapshots are handed on.
    const local = storage.openFeed ? null : new LocalProfileFeed();
    const feed = storage.openFeed?.() ?? local!;
    const sink: ProfileSink = local ? new FeedingSink(stored, local, settings.redactKeys) : stored;
    // A CPU profile (X-Trellis-Profile-CPU) is for those who may open the profiler, as Symfony's
    // profiler is: from anyone else the header is ignored.
    const recording = recordProfiles(app, { ...build, issuer, sink, collectors: [...(opts.collectors ?? []), ...(opts.panels ?? []).filter(isProfilerPanel).map((p) => p.collector)], keep: keepPolicy(settings.keep), mayProfileCpu: mayOpen, mayKnow: (request) => gate(request.clientIp || (request.socket?.remoteAddress ?? '')) });
    // After the recorder: the toolbar goes only into pages that carry their X-Debug-Token.
    if (settings.toolbar) toolbarInjection(app, { mayOpen });
    // A profile stored as its snapshot is built with the collectors it would have been built with
    // when written: the built-in ones (the app's ran on the request thread; their data is in it).
    // A record this version cannot read (damaged, or written by another one) is as good as gone;
    // a store that fails is the pages' 503 (from-store.ts).
    const read = (token: string): Promise<Profile | null> =>
      readStoredProfile(storage, build, token, (error) => {
        app.log.error({ err: error, channel: 'profiler', token }, `The profiler could not read the profile "${token}": ${(error as Error)?.message}`);
        return null;
      });
    let facts: AppFacts | undefined;
    // Pages wait for the queue a bounded time: with the store gone it drains only as fast as
    // writes fail (settled-within.ts). The handle below (tests, tools) waits for all of it.
    const pageSettled = settledWithin(() => recording.settled());
    profilerRoutes(app, {
      storage,
      read,
      settled: pageSettled,
      panels: [...defaultPanels, ...(opts.panels ?? [])],
      timeZone: opts.timeZone ?? 'UTC',
      app: () => (facts ??= appFacts(app, config)),
      explain: { signer: new ExplainSigner(config.jwt.secret), database: (opts.database as Kysely<unknown> | undefined) ?? null },
      mayOpen,
      dropped: () => sink.dropped,
      live: { storage, feed, timeZone: opts.timeZone ?? 'UTC', settled: pageSettled, ...opts.live },
      csrf: new ProfilerCsrf(config.jwt.secret),
    });

    app.decorate('profiler', { storage, read, settled: () => recording.settled() } satisfies ProfilerHandle);
    app.addHook('onClose', async () => {
      recording.stop();
      await recording.settled();
      await sink.close();
      if (!opts.storage) await storage.close();
    });
  },
  { name: 'trellis-profiler', fastify: '5.x' },
);
