import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { subscribe } from '../observe/channels.ts';
import type { SubRequest } from '../kernel/sub-request.ts';
import { profiledRequest, runCollectors, type BuildOptions } from './build-profile.ts';
import { capturedResponse } from './capture-body.ts';
import { wireHeaderBlock } from './wire-headers.ts';
import { withCutBodyText } from './cut-body-text.ts';
import type { DataCollector } from './data-collector.ts';
import { KEEP_ALL, type KeepPolicy } from './keep-policy.ts';
import { ProfileContext } from './profile-context.ts';
import type { ProfileScope } from './profile-scope.ts';
import { recordedQuery } from './recorded-query.ts';
import { heapUsed, recentRss } from './memory-sample.ts';
import { observeHttpClient } from './http-call.ts';
import { serverTiming } from './server-timing.ts';
import { apiRecord, negotiation } from './api-record.ts';
import { routeTrace } from './route-trace.ts';
import { routedPathOf } from '../kernel/routed-path.ts';
import { authenticationRecord, decisionRecord, MAX_SECURITY_RECORDS, voteRecord, type SecurityRecord } from './security-record.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { ProfileSink } from './profile-sink.ts';
import type { TokenIssuer } from './token.ts';
import { asksForCpuProfile, CPU_SAMPLING_INTERVAL_US, startCpuSampling, stopCpuSampling } from './cpu/cpu-sampler.ts';
import { capCpuProfile } from './cpu/cpu-profile.ts';

export interface RecorderOptions extends BuildOptions {
  readonly issuer: TokenIssuer;
  readonly sink: ProfileSink;
  /** Collectors the app added: they run here, on the request thread, after the response is sent. */
  readonly collectors: readonly DataCollector[];
  /** Which requests are kept (PROFILER_SAMPLE, PROFILER_ONLY); default all. */
  readonly keep?: KeepPolicy;
  /** Who may have a request CPU-sampled (the profiler's gate); none when absent. */
  readonly mayProfileCpu?: (request: FastifyRequest) => boolean;
  /**
   * Who is told of a request's profile (X-Debug-Token, X-Debug-Token-Link, Server-Timing): the
   * addresses the gate admits. Everyone's requests are recorded. Absent: everyone is told.
   */
  readonly mayKnow?: (request: FastifyRequest) => boolean;
}

/** The fields capturedResponse looks up to size the body, read one by one (no copy of them all). */
function bodyHeaders(reply: FastifyReply): Record<string, unknown> {
  return { 'content-length': reply.getHeader('content-length'), 'content-type': reply.getHeader('content-type'), trailer: reply.getHeader('trailer'), 'transfer-encoding': reply.getHeader('transfer-encoding') };
}

/** A CORS preflight (Fetch standard §3.2.2): answered before profiling and never recorded. */
function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

/**
 * The scope of the profiled request the current code runs for, for events that carry no request
 * (see profile-scope.ts for why it is not the request's whole context).
 */
export const currentProfile = new AsyncLocalStorage<ProfileScope>();

export interface Recording {
  /** Resolves once every request answered so far is stored (or failed and was logged). */
  settled(): Promise<void>;
  /** Stops recording: unsubscribes from the channels. */
  stop(): void;
}

/**
 * Records every request on the request thread: opens its context on onRequest (token, start),
 * follows the lifecycle through diagnostics_channel events and its own hook marks, adds
 * X-Debug-Token on onSend, and after the response is sent hands a snapshot of it and of its
 * sub-requests to the sink, which builds and stores the profiles elsewhere (profile-sink.ts).
 */
export function recordProfiles(app: FastifyInstance, options: RecorderOptions): Recording {
  // A request's context is kept on the request, in a field the Request class is given up front
  // (decorateRequest: setting it changes no object's shape). A WeakMap entry per request cost a
  // hash lookup per event, ten a request, and an ephemeron for every young-generation collection.
  // A symbol of this recording's own: nobody else reads it, and a second recording has its own.
  const key = Symbol('trellis.profileContext');
  app.decorateRequest(key, null);
  const contexts = {
    get: (request: FastifyRequest): ProfileContext | undefined => (request as unknown as Record<symbol, ProfileContext | null | undefined>)[key] ?? undefined,
    set: (request: FastifyRequest, ctx: ProfileContext): void => void ((request as unknown as Record<symbol, ProfileContext | null>)[key] = ctx),
    delete: (request: FastifyRequest): void => void ((request as unknown as Record<symbol, ProfileContext | null>)[key] = null),
  };
  const children = new WeakMap<SubRequest, ProfileContext>();
  const { issuer, sink, collectors, maxBodyBytes, mayProfileCpu, mayKnow } = options;
  const keep = options.keep ?? KEEP_ALL;
  /** Requests answered since the last hand-on: snapshots are taken a turn later, in one batch. */
  let finished: ProfileContext[] = [];
  let scheduled = false;
  /** Waiting for the next hand-on (`settled()` called before it). */
  let handedOn: (() => void)[] = [];

  /** A security event of a profiled request, kept in its profile (a capped number of them). */
  const keepSecurity = (request: FastifyRequest | null, record: (atMs: number) => SecurityRecord): void => {
    const ctx = request ? contexts.get(request) : undefined;
    if (ctx && ctx.security.length < MAX_SECURITY_RECORDS) ctx.security.push(record(Math.round((performance.now() - ctx.origin) * 1000) / 1000));
  };

  const unsubscribe = [
    observeHttpClient(() => currentProfile.getStore()),
    // Phase marks come from the kernel: guard, parse, firewall, and handler (kernel/marked-handler.ts).
    subscribe('phase', (e) => {
      const ctx = contexts.get(e.request);
      if (!ctx) return;
      ctx.mark(e.phase, e.at);
      if (ctx.cpu === 'asked') startCpu(ctx);
    }),
    subscribe('route', (e) => {
      const ctx = contexts.get(e.request);
      if (ctx) ctx.route = { pattern: e.route, params: e.params };
    }),
    subscribe('error', (e) => contexts.get(e.request)?.errors.push(e.error)),
    subscribe('resourceStages', (e) => {
      const ctx = e.request ? contexts.get(e.request) : undefined;
      if (ctx) ctx.api = apiRecord(e, ctx.origin);
    }),
    subscribe('negotiate', (e) => {
      const ctx = contexts.get(e.request);
      if (ctx) ctx.negotiation = negotiation(e);
    }),
    // An authenticator that skipped (no credentials of its kind) is the common case of every
    // anonymous request: not kept, so the panel lists the authenticators that tried.
    subscribe('authentication', (e) => e.outcome !== 'skipped' && keepSecurity(e.request, (at) => authenticationRecord(e, at))),
    subscribe('vote', (e) => keepSecurity(e.request, (at) => voteRecord(e, at))),
    subscribe('accessDecision', (e) => keepSecurity(e.request, (at) => decisionRecord(e, at))),
    // A query carries no request: the context is the profile the calling code runs for.
    subscribe('dbQuery', (e) => currentProfile.getStore()?.addQuery((atMs) => recordedQuery(e, atMs), e.durationMs, e.sql, e.startedAt)),
    subscribe('subRequestStart', ({ parent, subRequest }) => {
      const ctx = contexts.get(parent);
      if (!ctx) return;
      ctx.mark(subRequest.purpose);
      let token: string;
      try {
        token = issuer.issue();
      } catch {
        return;
      }
      const child = new ProfileContext({ token, parentToken: ctx.token, request: parent, subRequest, startTime: subRequest.startedAt });
      child.mark('sub-request');
      // The sub-request renders the parent's error: its exception panel shows the same chain.
      child.errors.push(...ctx.errors);
      ctx.children.push(child);
      children.set(subRequest, child);
    }),
    subscribe('subRequestEnd', ({ subRequest }) => {
      const child = children.get(subRequest);
      if (!child) return;
      child.statusCode = subRequest.statusCode;
      child.durationMs = subRequest.durationMs;
    }),
  ];

  app.addHook('onRequest', (request, _reply, done) => {
    // The profiler's own pages are marked on their routes (profiler-routes.ts): decided on what was
    // routed, never on a URL pattern. Unknown paths under /_profiler are ordinary 404s, recorded.
    if (request.routeOptions.config?.unprofiled === true || isPreflight(request)) return done();
    const startTime = Date.now();
    const start = performance.now();
    let token: string;
    try {
      token = issuer.issue();
    } catch (error) {
      request.log.error({ err: error, channel: 'profiler' }, 'The profiler could not open a profile');
      return done();
    }
    const ctx = new ProfileContext({ token, parentToken: null, request, subRequest: null, startTime, origin: start });
    ctx.mark('observe', start);
    ctx.heapStart = heapUsed(start);
    contexts.set(request, ctx);
    if (mayProfileCpu && asksForCpuProfile(request.headers)) ctx.cpu = 'asked';
    currentProfile.run(ctx.scope, done);
  });

  /**
   * Starts a CPU profile asked for, at the first phase after the guard (the firewall, else the
   * handler): only then is the client address settled for the gate to judge. Refused, or with
   * another request being sampled, the request runs unsampled.
   */
  function startCpu(ctx: ProfileContext): void {
    if (ctx.request.clientIp === '') return;
    ctx.cpu = mayProfileCpu!(ctx.request) && startCpuSampling(ctx) ? 'sampling' : null;
  }
  app.addHook('onSend', (request, reply, payload, done) => {
    const ctx = contexts.get(request);
    if (ctx && keep !== KEEP_ALL && !keep.keeps(reply.statusCode, performance.now() - ctx.origin)) {
      // Not kept: no profile, so no X-Debug-Token pointing at one, and its token is free again.
      contexts.delete(request);
      ctx.scope.close();
      issuer.forget(ctx.token);
      if (ctx.cpu === 'sampling') stopCpuSampling(ctx);
    } else if (ctx) {
      ctx.mark('respond');
      ctx.payload = payload;
      // A client whose address the gate refuses is not told the profiler is there: its profile is
      // recorded, for those who may open it, but no header points at it (access-gate.ts). A
      // loopback client sending another Host is told: the token opens nothing for it. A request
      // refused before its address was settled (a bad Host, 400) is judged by its peer's.
      if (mayKnow !== undefined && !mayKnow(request)) return done(null, payload);
      reply.header('x-debug-token', ctx.token);
      reply.header('server-timing', serverTiming(ctx.marks, ctx.scope.queries, Math.round((performance.now() - ctx.origin) * 1000)));
      reply.header('x-debug-token-link', `${request.trellisOrigin}/_profiler/${ctx.token}`);
      // An error was rendered in a sub-request: its profile is named too.
      const rendered = ctx.children.at(-1);
      if (rendered) reply.header('x-previous-debug-token', rendered.token);
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const ctx = contexts.get(request);
    if (ctx) {
      ctx.mark('terminate');
      ctx.statusCode = reply.statusCode;
      const end = performance.now();
      ctx.durationMs = end - ctx.origin;
      ctx.memory = { heapStart: ctx.heapStart, heapEnd: heapUsed(end), rss: recentRss(end) };
      if (ctx.cpu === 'sampling') {
        // Capped here, after the response: a snapshot may be stored as it is (cpu/cpu-profile.ts).
        const profile = stopCpuSampling(ctx);
        if (profile) ctx.cpuSample = capCpuProfile(profile, CPU_SAMPLING_INTERVAL_US);
      }
      ctx.routing = routingOf(request, ctx.statusCode);
      // Taken now, a long body cut to a string of its own, so the context waiting for the next
      // turn holds neither the request nor the whole body (profile-context.ts, release). The
      // headers are the block written to the socket (wire-headers.ts), a string nothing changes;
      // without one (HTTP/2), getHeaders() returns a fresh object, which later changes to the
      // reply cannot reach either.
      const wire = wireHeaderBlock(reply.raw);
      ctx.response =
        wire === null
          ? capturedResponse(ctx.statusCode, reply.getHeaders(), ctx.payload, maxBodyBytes, request.method)
          : capturedResponse(ctx.statusCode, bodyHeaders(reply), ctx.payload, maxBodyBytes, request.method, wire);
      ctx.payload = null;
      const facts = ctx.release(maxBodyBytes, options.redactKeys);
      for (const child of ctx.children) child.release(maxBodyBytes, options.redactKeys, facts);
      contexts.delete(request);
      finished.push(ctx);
      if (!scheduled) {
        scheduled = true;
        setImmediate(handOn);
      }
    }
    done();
  });

  /**
   * For a 404 or 405, the route trace (Routing panel): taken here, where the routes are. A
   * matched request needs nothing more (its route and path are in the snapshot; the panel asks
   * the live routes for the methods), so the common case costs nothing.
   */
  function routingOf(request: FastifyRequest, statusCode: number): RequestSnapshot['routing'] {
    const routes = app.trellis?.routes;
    if (!routes || (statusCode !== 404 && statusCode !== 405)) return undefined;
    try {
      const path = routedPathOf(request);
      return { path, methods: routes.allowedMethods(path, request), trace: routeTrace(routes.entries(), request.method, path) };
    } catch {
      // A path the router cannot decode (a 400): nothing to say about routes.
      return undefined;
    }
  }

  /** Families whose app collectors are still running (they returned promises). */
  const collecting = new Set<Promise<void>>();

  // A later turn: the response is sent and the other onResponse hooks (the request log line)
  // have run, so their records are in the snapshot too.
  function handOn(): void {
    scheduled = false;
    const done = finished;
    finished = [];
    try {
      const batch: RequestSnapshot[] = [];
      for (const ctx of done) {
        const response = ctx.response;
        // Parent first: with equal start times, store order makes the sub-request the newer one.
        const exception = ctx.exception();
        const main = ctx.snapshot(response, exception);
        // Most requests have no sub-request: their snapshot goes as it is, without a family array.
        if (collectors.length === 0 && ctx.children.length === 0) {
          batch.push(main);
          continue;
        }
        const family = [main, ...ctx.children.map((c) => c.snapshot(response, c.errors.at(-1) === ctx.errors.at(-1) ? exception : c.exception()))];
        if (collectors.length === 0) {
          batch.push(...family);
          continue;
        }
        const withData = family.map(collectHere);
        if (!withData.some((s) => s instanceof Promise)) {
          batch.push(...shareSecrets(withData as RequestSnapshot[]));
          continue;
        }
        // Sent when its collectors are done, so after requests that ended later.
        const sent = Promise.all(withData).then((snapshots) => sink.send(shareSecrets(snapshots)));
        collecting.add(sent);
        void sent.finally(() => collecting.delete(sent));
      }
      sink.send(batch);
    } catch (error) {
      app.log.error({ err: error, channel: 'profiler' }, `The profiler could not record ${done.length} request(s): ${(error as Error)?.message}`);
    } finally {
      // Snapshots hold what the scopes gathered; a request whose snapshot failed is not recorded.
      for (const ctx of done) ctx.scope.close();
      const waiting = handedOn;
      handedOn = [];
      for (const resume of waiting) resume();
    }
  }

  /**
   * A family shares its response and exception (what the sub-request rendered), so a secret an
   * app collector found for one of them is scrubbed from all of them.
   */
  function shareSecrets(family: RequestSnapshot[]): RequestSnapshot[] {
    const secrets = [...new Set(family.flatMap((s) => s.secrets ?? []))];
    return secrets.length === 0 || family.length === 1 ? family : family.map((s) => ({ ...s, secrets }));
  }

  /**
   * Runs the app's collectors on a snapshot; their data travels with it, redacted, and so do the
   * secrets they found: the profiler thread removes those from every other panel too.
   */
  function collectHere(snapshot: RequestSnapshot): RequestSnapshot | Promise<RequestSnapshot> {
    const ctx = profiledRequest(withCutBodyText(snapshot), options);
    const collected: Record<string, unknown> = {};
    // Secrets travel only when there are some: a snapshot without any may be stored unbuilt.
    const attach = () => {
      const secrets = ctx.redaction.secrets();
      return { ...snapshot, collected: ctx.redaction.scrub(collected), ...(secrets.length > 0 ? { secrets } : {}) };
    };
    const ran = runCollectors(ctx, collectors, collected);
    return ran instanceof Promise ? ran.then(attach) : attach();
  }

  return {
    async settled() {
      if (scheduled) await new Promise<void>((resume) => handedOn.push(resume));
      while (collecting.size > 0) await Promise.allSettled([...collecting]);
      await sink.settled();
    },
    stop: () => unsubscribe.forEach((off) => off()),
  };
}
