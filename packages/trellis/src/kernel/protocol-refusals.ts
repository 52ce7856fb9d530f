import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from './http-error.ts';
import { answerAfterPipelined, problemBody, rawProblem } from './raw-problem-answer.ts';
import { ellipsis } from '../logging/cut-string.ts';
import { OncePerInterval } from '../logging/once-per-interval.ts';

/** What an Expect header is quoted with in the 417's message, at most. */
const MAX_QUOTED = 64;

/** A response of either protocol: HTTP/2's compatibility layer has the same `writeHead` and `end`. */
type Response = Pick<ServerResponse, 'writeHead' | 'end' | 'once'> & { shouldKeepAlive?: boolean };

/** The events of Node's HTTP server that it answers itself, with an empty body, when nobody listens. */
interface ProtocolEvents {
  on(event: 'checkExpectation', listener: (request: IncomingMessage, response: Response) => void): unknown;
  on(event: 'connect', listener: (request: IncomingMessage, socketOrResponse: Socket | Response, head?: Buffer) => void): unknown;
}

/** `answer` as problem+json on a response object; over HTTP/1.1 the connection closes after it. */
function answerOn(request: IncomingMessage, response: Response, answer: HttpError): void {
  const body = problemBody(answer);
  const http1 = request.httpVersionMajor === 1;
  // HTTP/2 forbids connection-specific fields (RFC 9113 §8.2.2): its stream ends, not the connection.
  if (http1) response.shouldKeepAlive = false;
  response.writeHead(answer.status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...(http1 ? { connection: 'close' } : {}),
  });
  response.end(body);
}

/**
 * HTTP/1.1 requests of one connection being handled or answered and not yet sent, at most: a
 * client may pipeline (RFC 9112 §9.3.2), but Node starts every request of a chunk at once and
 * keeps each answer until the ones before it are read. One socket writing 3,000 GETs of a
 * 100-item page and reading nothing held ~140 KB per request (RSS 172 → 668 MB). Past the cap a
 * request is answered 429 without being handled, and the connection closes after it.
 */
export const MAX_PIPELINED = 32;
const IN_FLIGHT = Symbol('trellis.pipelined');

/** Where a refusal is told: one warning per interval (an operator sees a client cut off). */
type RefusalLog = { warn(context: Record<string, unknown>, message: string): void };

/** Puts the pipelining cap in front of the server's request handler (Fastify's). */
export function capPipelinedRequests(server: NodeJS.EventEmitter, log: RefusalLog | null = null, max = MAX_PIPELINED): void {
  // A flood refuses thousands of requests in a burst: one line per interval, with their count.
  const refusals = new OncePerInterval(10_000);
  const handlers = server.listeners('request') as ((request: IncomingMessage, response: Response) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: Response) => {
    // HTTP/2 streams are bounded by the session's SETTINGS_MAX_CONCURRENT_STREAMS instead.
    if (request.httpVersionMajor === 1) {
      const socket = request.socket as Socket & { [IN_FLIGHT]?: number };
      const inFlight = (socket[IN_FLIGHT] ?? 0) + 1;
      socket[IN_FLIGHT] = inFlight;
      response.once('close', () => void (socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1));
      if (inFlight > max) {
        const count = refusals.hit();
        if (count !== null) log?.warn({ channel: 'request', code: 'too_many_pipelined_requests', ip: socket.remoteAddress, refused: count }, `A connection pipelined more than ${max} requests without reading the answers: ${count} ${count === 1 ? 'request' : 'requests'} refused (429) since the last report, the connection closed.`);
        return answerOn(request, response, HttpError.of('too_many_pipelined_requests', { max }));
      }
    }
    for (const handler of handlers) handler.call(server, request, response);
  });
}

/**
 * Answers, in problem+json with the security headers, what Node's HTTP server refuses before a
 * route exists and used to answer bare: an Expect other than 100-continue (a 417 with an empty
 * body, the connection kept) and CONNECT (the socket closed with no answer at all).
 */
export function answerProtocolRefusals(server: ProtocolEvents): void {
  // RFC 9110 §10.1.1: "A server that receives an Expect field value containing a member other
  // than 100-continue MAY respond with a 417 (Expectation Failed)". Node emits this only then.
  // The body the client meant to send after the expectation is not read: over HTTP/1.1 the
  // connection closes.
  server.on('checkExpectation', (request, response) => {
    const raw = String(request.headers.expect ?? '');
    const expect = ellipsis(raw, MAX_QUOTED);
    answerOn(request, response, HttpError.of('expectation_failed', { expect }));
  });
  // RFC 9110 §9.3.6: CONNECT asks the recipient to open a tunnel; an origin server has none to open.
  // HTTP/1.1 hands over the socket; HTTP/2 (RFC 9113 §8.5) a response for the stream.
  server.on('connect', (request, socketOrResponse) => {
    const answer = HttpError.of('connect_not_supported');
    if (typeof (socketOrResponse as Response).writeHead === 'function') return answerOn(request, socketOrResponse as Response, answer);
    const socket = socketOrResponse as Socket;
    socket.on('error', () => socket.destroy());
    answerAfterPipelined(socket, rawProblem(answer));
  });
}
