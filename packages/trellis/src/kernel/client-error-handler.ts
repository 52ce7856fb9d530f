import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from './http-error.ts';
import { answerAfterPipelined, rawProblem } from './raw-problem-answer.ts';

/** A parser error as Node hands it to `clientError`: the bytes it failed on, when it has them. */
export type ClientError = Error & { code?: string; rawPacket?: unknown; bytesParsed?: number };

/** Connections REQUEST_TIMEOUT cut: answered 408 here, while a handler may still be reading a body. */
const timedOut = new WeakSet<object>();

/** Whether REQUEST_TIMEOUT, not the client, ended this connection's request. */
export function cutByRequestTimeout(socket: object | null | undefined): boolean {
  return socket != null && timedOut.has(socket);
}

/** RFC 9110 §5.6.2: a method is a token. */
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;

/**
 * What to answer bytes Node's HTTP parser refused before any request existed, or null when the
 * client is gone and nothing can be answered. No route, hook or format negotiation has run, so
 * the answer is problem+json (RFC 9457) with the error table's code and exact message.
 */
export function clientErrorAnswer(error: ClientError): HttpError | null {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return HttpError.of('request_timeout');
    case 'HPE_HEADER_OVERFLOW':
      // One limit covers the request line and the header fields together: the overflow is the
      // target's when the first line has no end in sight or is most of the limit.
      return HttpError.of(targetOverflows(error.rawPacket, error.bytesParsed) ? 'request_target_too_long' : 'request_headers_too_large', { limit: maxHeaderSize });
    case 'HPE_INVALID_METHOD': {
      const method = firstToken(error.rawPacket, error.bytesParsed);
      return method === null ? HttpError.of('malformed_request') : HttpError.of('unknown_method', { method });
    }
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return HttpError.of('invalid_content_length');
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return HttpError.of('malformed_chunked_body');
    default:
      return HttpError.of('malformed_request');
  }
}

/**
 * The first line of the request the parser failed on. The packet may begin with requests it parsed
 * (pipelined in one write): the failing one starts after the last empty line before the error's
 * offset (the offset itself may lie in its header block: a field past the size limit).
 */
function firstLine(raw: unknown, at = 0): { line: string; ended: boolean } {
  if (!Buffer.isBuffer(raw)) return { line: '', ended: false };
  const offset = Math.min(Math.max(0, at), raw.length);
  const previous = offset < 4 ? -1 : raw.lastIndexOf('\r\n\r\n', offset - 4);
  const start = previous < 0 ? 0 : previous + 4;
  const text = raw.toString('latin1', start, Math.min(raw.length, start + maxHeaderSize + 2));
  const end = text.indexOf('\r\n');
  return { line: end < 0 ? text : text.slice(0, end), ended: end >= 0 };
}

function targetOverflows(raw: unknown, at?: number): boolean {
  const { line, ended } = firstLine(raw, at);
  return /^[A-Za-z-]+ \S/.test(line) && (!ended || line.length > maxHeaderSize / 2);
}

function firstToken(raw: unknown, at?: number): string | null {
  const { line } = firstLine(raw, at);
  const token = line.slice(0, line.indexOf(' ') < 0 ? line.length : line.indexOf(' '));
  return METHOD_TOKEN.test(token) && line.includes(' ') ? token : null;
}

/**
 * Fastify's `clientErrorHandler`: its default answered `{"error":"Bad Request","message":"Client
 * Error"}` as application/json without the security headers. The parser's state is unknown after
 * an error, so the connection closes after the answer (RFC 9112 §9.6).
 */
export function clientErrorHandler(error: ClientError, socket: Socket): void {
  // A body still being read when the deadline passed was cut by us, not by its client (read-body.ts).
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') timedOut.add(socket);
  const answer = clientErrorAnswer(error);
  if (answer === null) {
    socket.destroy();
    return;
  }
  // The method, when the request line got that far: a HEAD is answered without a body.
  answerAfterPipelined(socket, rawProblem(answer, firstToken(error.rawPacket, error.bytesParsed)));
}
