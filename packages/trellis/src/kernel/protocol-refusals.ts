import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { answerAfterPipelined, rawProblem } from './client-error-handler.ts';
import { HttpError } from './http-error.ts';

/** What an Expect header is quoted with in the 417's message, at most. */
const MAX_QUOTED = 64;

/** The events of Node's HTTP server that it answers itself, with an empty body, when nobody listens. */
interface ProtocolEvents {
  on(event: 'checkExpectation', listener: (request: IncomingMessage, response: ServerResponse) => void): unknown;
  on(event: 'connect', listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
}

/**
 * Answers, in problem+json with the security headers, what Node's HTTP server refuses before a
 * route exists and used to answer bare: an Expect other than 100-continue (a 417 with an empty
 * body, the connection kept) and CONNECT (the socket closed with no answer at all).
 */
export function answerProtocolRefusals(server: ProtocolEvents): void {
  // RFC 9110 §10.1.1: "A server that receives an Expect field value containing a member other
  // than 100-continue MAY respond with a 417 (Expectation Failed)". Node emits this only then.
  server.on('checkExpectation', (request, response) => {
    const raw = String(request.headers.expect ?? '');
    const expect = raw.length > MAX_QUOTED ? `${raw.slice(0, MAX_QUOTED - 1)}…` : raw;
    const answer = HttpError.of('expectation_failed', { expect });
    const body = JSON.stringify({ type: 'about:blank', title: 'Expectation Failed', status: answer.status, detail: answer.message, code: answer.code });
    // The body the client meant to send after the expectation is not read: the connection closes.
    response.shouldKeepAlive = false;
    response.writeHead(answer.status, {
      'content-type': 'application/problem+json',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      connection: 'close',
    });
    response.end(body);
  });
  // RFC 9110 §9.3.6: CONNECT asks the recipient to open a tunnel; an origin server has none to open.
  server.on('connect', (_request, socket) => {
    socket.on('error', () => socket.destroy());
    answerAfterPipelined(socket as never, rawProblem(HttpError.of('connect_not_supported')));
  });
}
