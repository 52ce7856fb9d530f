import { constants, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { Readable } from 'node:stream';
import { HttpError } from './http-error.ts';
import { problemBody } from './raw-problem-answer.ts';

/** How long after the deadline a stream whose answer has not been written is reset all the same. */
const FALLBACK_MS = 1000;

/** What a body being read does when its request's deadline passes (read-body.ts): it fails, 408. */
const readers = new WeakMap<object, () => void>();
/** How to stop the app answering a request the deadline answered itself (its reply, hijacked). */
const apps = new WeakMap<object, () => void>();

/**
 * Registers how the app's answer to `request` is given up when the deadline answers it itself: a
 * handler that answers later is then ignored, where Fastify warned "Reply was already sent, did
 * you forget to return reply", blaming the app for the deadline.
 */
export function whenAnsweredByDeadline(request: object, giveUp: () => void): void {
  apps.set(request, giveUp);
}

/**
 * Registers what to do if the deadline of the request whose body `stream` is passes while it is
 * read; returns the function that unregisters it. Only HTTP/2 requests have such a deadline here:
 * HTTP/1.1's is Node's (client-error-handler.ts).
 */
export function whenDeadlinePasses(stream: Readable, cut: () => void): () => void {
  readers.set(stream, cut);
  return () => {
    if (readers.get(stream) === cut) readers.delete(stream);
  };
}

/** Whether the client sent the whole request: END_STREAM arrived (read or not yet). */
function received(request: Http2ServerRequest): boolean {
  const stream = request.stream as Http2ServerRequest['stream'] & { _readableState?: { ended?: boolean } };
  // Node sets `ended` when END_STREAM arrives, before the data is read; no public property says so.
  return stream.endAfterHeaders || stream._readableState?.ended === true || stream.destroyed;
}

/**
 * REQUEST_TIMEOUT for HTTP/2 streams. Node's HTTP/2 compatibility server has no request deadline
 * (`requestTimeout` and `headersTimeout` are HTTP/1.1's), so a stream whose body never ends (a
 * byte now and then, or its Content-Length sent without END_STREAM) stayed open for as long as the
 * session lived, holding its share of BODY_MEMORY and the handler waiting on it.
 *
 * The deadline starts with the request (its headers arrive whole in HTTP/2) and covers receiving
 * it, as HTTP/1.1's does: a request received in time may take as long as it needs. When it passes:
 * a body being read fails with `request_timeout` and the app answers 408 as for any error (its
 * format, its profile); a body nobody reads is answered 408 here. Then the stream is reset with
 * NO_ERROR once the answer is sent, which tells the client to stop sending its body (RFC 9113 §8.1).
 */
export function http2Deadline(server: Http2SecureServer, timeoutMs: number): void {
  server.on('request', (request: Http2ServerRequest, response: Http2ServerResponse) => {
    // The HTTP/1.1 fallback of the same server: Node's own deadline covers it.
    if (request.httpVersionMajor !== 2 || received(request)) return;
    const timer = setTimeout(() => {
      if (received(request)) return;
      const stream = request.stream;
      const reset = () => {
        if (!stream.destroyed) stream.close(constants.NGHTTP2_NO_ERROR);
      };
      const cut = readers.get(request);
      // Once our side of the stream is ended (the answer written): the response's own 'finish'
      // waits for the stream to close, which a client still sending never lets happen.
      if (stream.writableEnded) reset();
      else stream.once('finish', reset);
      // Whatever becomes of the answer (an app that never sends it), the stream does not outlive
      // the deadline by more than a moment.
      const fallback = setTimeout(() => {
        if (!stream.destroyed) stream.close(constants.NGHTTP2_CANCEL);
      }, FALLBACK_MS);
      fallback.unref();
      stream.once('close', () => clearTimeout(fallback));
      if (cut !== undefined) {
        readers.delete(request);
        cut();
      } else if (!response.headersSent) {
        apps.get(request)?.();
        const body = problemBody(HttpError.of('request_timeout'));
        response.writeHead(408, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      }
    }, timeoutMs);
    timer.unref();
    request.stream.once('close', () => clearTimeout(timer));
  });
}
