import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * One log line per request, when the response is done: method, URL, status, duration. In debug
 * the line is written in the request's scope, so it also lands in the request's kept records.
 */
export const requestLogPlugin = fp(
  async (app: FastifyInstance, opts: { debug: boolean }) => {
    if (opts.debug) {
      app.addHook('onRequest', (request, _reply, done) => {
        request.log.debug({ channel: 'request', method: request.method, url: request.url }, `Matched route "${request.routeOptions.url ?? '(none)'}".`);
        done();
      });
    }
    // pino's level value for "info"; skip building the line at all when it would be dropped.
    const enabled = (app.log as unknown as { levelVal?: number }).levelVal ?? 30;
    if (enabled > 30) return;
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { channel: 'request', method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100, ip: request.clientIp },
        `${request.method} ${request.url} ${reply.statusCode}`,
      );
      done();
    });
  },
  { name: 'trellis-request-log' },
);
