import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from './http-error.ts';

/** A parser error as Node hands it to `clientError`: the bytes it failed on, when it has them. */
export type ClientError = Error & { code?: string; rawPacket?: unknown; bytesParsed?: number };

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
 * (pipelined in one write): the failing one starts on the line holding the error's offset.
 */
function firstLine(raw: unknown, at = 0): { line: string; ended: boolean } {
  if (!Buffer.isBuffer(raw)) return { line: '', ended: false };
  const offset = Math.min(Math.max(0, at), raw.length);
  const start = offset === 0 ? 0 : raw.lastIndexOf(0x0a, offset - 1) + 1;
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

/** A response of the connection, as Node keeps it on the socket while it is written. */
type Outgoing = NodeJS.EventEmitter & { headersSent?: boolean; writableFinished?: boolean; req?: { complete?: boolean } };

/**
 * Fastify's `clientErrorHandler`: its default answered `{"error":"Bad Request","message":"Client
 * Error"}` as application/json without the security headers. The parser's state is unknown after
 * an error, so the connection closes after the answer (RFC 9112 §9.6).
 */
export function clientErrorHandler(error: ClientError, socket: Socket): void {
  const answer = clientErrorAnswer(error);
  if (answer === null) {
    socket.destroy();
    return;
  }
  answerAfterPipelined(socket, rawProblem(answer));
}

/**
 * Writes `bytes` and closes, once the responses to requests parsed before the bad bytes are
 * written: a client that pipelined a good request and a bad one (RFC 9112 §9.3.2) gets the first
 * answer, then the 400, in order. A response begun for a request whose own body failed cannot be
 * followed by another: that connection is only closed, as Node does.
 */
export function answerAfterPipelined(socket: Socket, bytes: string): void {
  const current = (socket as Socket & { _httpMessage?: Outgoing | null })._httpMessage;
  if (current && current.writableFinished !== true) {
    if (current.req?.complete !== true) {
      if (current.headersSent === true || !socket.writable) socket.destroy();
      else socket.end(bytes);
      return;
    }
    // The next queued response takes the socket when this one finishes (before our listener runs).
    current.once('finish', () => answerAfterPipelined(socket, bytes));
    current.once('close', () => {
      if (current.writableFinished !== true) socket.destroy();
    });
    return;
  }
  if (!socket.writable) socket.destroy();
  else socket.end(bytes);
}

/** A whole HTTP/1.1 response carrying `answer` as problem+json (RFC 9457), closing the connection. */
export function rawProblem(answer: HttpError): string {
  const title = STATUS_CODES[answer.status] ?? 'Error';
  const body = JSON.stringify({ type: 'about:blank', title, status: answer.status, detail: answer.message, code: answer.code });
  return (
    `HTTP/1.1 ${answer.status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`
  );
}
