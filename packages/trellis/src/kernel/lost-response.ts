import type { FastifyInstance } from 'fastify';

/**
 * A response whose connection closed before it was written (the client gave up waiting, or
 * REQUEST_TIMEOUT cut a body a handler was reading) never emits 'finish', and Fastify runs the
 * onResponse hooks on 'finish' or 'error' only: such a request had no log line and no profile,
 * only its error's line. Once the app has ended its answer (lost on the closed connection), or at
 * once if it already had, 'error' is emitted on the response for Fastify's listener, which runs
 * the onResponse hooks with the status the app answered.
 */
export function endLostResponses(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    // One listener per request ('finish' sets writableFinished before 'close' is emitted).
    res.once('close', () => {
      if (res.writableFinished) return;
      // Only Fastify's listener, attached while the request is routed: with none, emit would throw.
      const lost = () => void (res.listenerCount('error') > 0 && res.emit('error', new Error('The connection closed before the response was written.')));
      if (res.writableEnded) return lost();
      const end = res.end;
      res.end = function (this: typeof res, ...args: unknown[]) {
        const result = (end as (...a: unknown[]) => typeof res).apply(this, args);
        lost();
        return result;
      } as typeof res.end;
    });
    done();
  });
}
