import diagnostics from 'node:diagnostics_channel';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { subscribe } from '../observe/channels.ts';
import type { SubRequest } from '../kernel/sub-request.ts';
import { buildProfile } from './build-profile.ts';
import type { Profile } from './profile.ts';
import type { DataCollector } from './data-collector.ts';
import { ProfileContext } from './profile-context.ts';
import type { ProfileWriter } from './profile-writer.ts';
import type { TokenIssuer } from './token.ts';

export interface RecorderOptions {
  readonly collectors: readonly DataCollector[];
  readonly issuer: TokenIssuer;
  readonly writer: ProfileWriter;
  readonly maxBodyBytes: number;
  readonly redactKeys: readonly string[];
}

/** The profiler's own pages are never profiled (they would bury what they show). */
export const PROFILER_PATH = /^\/_profiler(?:[/?]|$)/;

/** A CORS preflight (Fetch standard §3.2.2): answered before profiling and never recorded. */
function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

/** The context of the profiled request the current code runs for (for events that carry no request). */
export const currentProfile = new AsyncLocalStorage<ProfileContext>();

/**
 * Records every request as a profile: opens its context on onRequest (token, start), follows the
 * lifecycle through diagnostics_channel events and its own hook marks, adds X-Debug-Token on
 * onSend, and after the response is sent collects and stores it with its sub-requests.
 * Returns the function that unsubscribes.
 */
export function recordProfiles(app: FastifyInstance, options: RecorderOptions): () => void {
  const contexts = new WeakMap<FastifyRequest, ProfileContext>();
  const children = new WeakMap<SubRequest, ProfileContext>();
  const { issuer, writer } = options;
  const contextOptions = { maxBodyBytes: options.maxBodyBytes, redactKeys: options.redactKeys };

  const unsubscribe = [
    subscribe('phase', (e) => contexts.get(e.request)?.mark(e.phase, e.at)),
    subscribe('route', (e) => {
      const ctx = contexts.get(e.request);
      if (ctx) ctx.route = { pattern: e.route, params: e.params };
    }),
    subscribe('error', (e) => contexts.get(e.request)?.errors.push(e.error)),
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
      const child = new ProfileContext({ ...contextOptions, token, parentToken: ctx.token, request: parent, subRequest, startTime: subRequest.startedAt });
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
    if (PROFILER_PATH.test(request.url) || isPreflight(request)) return done();
    const startTime = Date.now();
    const start = performance.now();
    let token: string;
    try {
      token = issuer.issue();
    } catch (error) {
      request.log.error({ err: error, channel: 'profiler' }, 'The profiler could not open a profile');
      return done();
    }
    const ctx = new ProfileContext({ ...contextOptions, token, parentToken: null, request, subRequest: null, startTime, origin: start });
    ctx.mark('observe', start);
    contexts.set(request, ctx);
    currentProfile.run(ctx, done);
  });
  // The parse and firewall marks come from `trellis:phase` (published by the body parser and the
  // firewall), the handler mark from Fastify's own tracing channel: no hook of ours per phase.
  const handlerStart = (message: unknown) => contexts.get((message as { request: FastifyRequest }).request)?.mark('handler');
  const handlerChannel = diagnostics.tracingChannel('fastify.request.handler');
  const handlerSubscribers = { start: handlerStart, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
  handlerChannel.subscribe(handlerSubscribers);
  unsubscribe.push(() => handlerChannel.unsubscribe(handlerSubscribers));
  app.addHook('onSend', (request, reply, payload, done) => {
    const ctx = contexts.get(request);
    if (ctx) {
      ctx.mark('respond');
      reply.header('x-debug-token', ctx.token);
      reply.header('x-debug-token-link', `${request.protocol}://${request.host || 'localhost'}/_profiler/${ctx.token}`);
      const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : null;
      ctx.response = { statusCode: reply.statusCode, headers: {}, payload: body };
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const ctx = contexts.get(request);
    if (ctx) {
      ctx.mark('terminate');
      ctx.statusCode = reply.statusCode;
      ctx.durationMs = performance.now() - ctx.origin;
      // getHeaders() returns a fresh object: later changes to the reply cannot reach the profile.
      ctx.response = { statusCode: reply.statusCode, headers: reply.getHeaders(), payload: ctx.response?.payload ?? null };
      contexts.delete(request);
      // Collection waits for a later turn: the response is sent and the other onResponse hooks
      // (the request log line) have run, so their records are in the profile too.
      writer.enqueue(() => store(ctx));
    }
    done();
  });

  function store(ctx: ProfileContext): void | Promise<void> {
    const built = buildProfile(ctx, options.collectors);
    if (built instanceof Promise) return built.then((profile) => storeFamily(ctx, profile));
    storeFamily(ctx, built);
  }

  function storeFamily(ctx: ProfileContext, profile: Profile): void | Promise<void> {
    // Parent first: with equal start times, write order makes the sub-request the newer one.
    writer.write(profile);
    const built: Promise<Profile>[] = [];
    for (const child of ctx.children) {
      child.response = ctx.response;
      const childProfile = buildProfile(child, options.collectors);
      if (childProfile instanceof Promise) built.push(childProfile);
      else if (built.length === 0) writer.write(childProfile);
      else built.push(Promise.resolve(childProfile));
    }
    if (built.length > 0) return Promise.all(built).then((profiles) => profiles.forEach((p) => writer.write(p)));
  }

  return () => unsubscribe.forEach((off) => off());
}
