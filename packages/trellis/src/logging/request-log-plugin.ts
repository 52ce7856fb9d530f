import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { redactQuery } from './redact-query.ts';
import { DEFAULT_SECRET_KEYS, secretKeyMatcher } from './redact-secrets.ts';

export interface RequestLogOptions {
  readonly debug: boolean;
  /** Key fragments naming secrets (PROFILER_REDACT_KEYS): such query parameters are logged as "[redacted]". */
  readonly redactKeys?: readonly string[];
}

/**
 * One log line per request, when the response is done: method, URL, status, duration. In debug
 * the line is written in the request's scope, so it also lands in the request's kept records.
 * The URL is logged with secret-named query parameters redacted (`?access_token=[redacted]`):
 * log lines are shipped and kept where credentials must not be.
 */
export const requestLogPlugin = fp(
  async (app: FastifyInstance, opts: RequestLogOptions) => {
    const isSecret = secretKeyMatcher(opts.redactKeys ?? DEFAULT_SECRET_KEYS);
    const loggedUrl = (url: string) => redactQuery(url, isSecret);
    if (opts.debug) {
      app.addHook('onRequest', (request, _reply, done) => {
        request.log.debug({ channel: 'request', method: request.method, url: loggedUrl(request.url) }, `Matched route "${request.routeOptions.url ?? '(none)'}".`);
        done();
      });
    }
    // pino's level value for "info"; skip building the line at all when it would be dropped.
    const enabled = (app.log as unknown as { levelVal?: number }).levelVal ?? 30;
    if (enabled > 30) return;
    app.addHook('onResponse', (request, reply, done) => {
      const url = loggedUrl(request.url);
      request.log.info(
        { channel: 'request', method: request.method, url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100, ip: request.clientIp },
        `${request.method} ${url} ${reply.statusCode}`,
      );
      done();
    });
  },
  { name: 'trellis-request-log' },
);
