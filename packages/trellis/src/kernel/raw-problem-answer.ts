import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpError } from './http-error.ts';

/** A response of the connection, as Node keeps it on the socket while it is written. */
type Outgoing = NodeJS.EventEmitter & { headersSent?: boolean; writableFinished?: boolean; req?: { complete?: boolean } };

/**
 * Sockets already given their last answer. After a parse error Node reports every later chunk
 * as another error: each would add its own wait (listeners without end on a long response).
 */
const answered = new WeakSet<Socket>();

/**
 * Writes `bytes` and closes, once the responses to requests parsed before the bad bytes are
 * written: a client that pipelined a good request and a bad one (RFC 9112 §9.3.2) gets the first
 * answer, then the 400, in order. A response begun for a request whose own body failed cannot be
 * followed by another: that connection is only closed, as Node does. Once per socket: what the
 * client sends after is read (its close must be seen) and dropped.
 */
export function answerAfterPipelined(socket: Socket, bytes: string): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  writeWhenDone(socket, bytes);
}

function writeWhenDone(socket: Socket, bytes: string): void {
  const current = (socket as Socket & { _httpMessage?: Outgoing | null })._httpMessage;
  if (current && current.writableFinished !== true) {
    if (current.req?.complete !== true) {
      if (current.headersSent === true || !socket.writable) socket.destroy();
      else socket.end(bytes);
      return;
    }
    // The next queued response takes the socket when this one finishes (before our listener runs).
    const onClose = () => {
      if (current.writableFinished !== true) socket.destroy();
    };
    current.once('finish', () => {
      current.off('close', onClose);
      writeWhenDone(socket, bytes);
    });
    current.once('close', onClose);
    return;
  }
  if (!socket.writable) socket.destroy();
  else socket.end(bytes);
}

/** The problem+json document (RFC 9457) of `answer`, as every error of the error table is written. */
export function problemBody(answer: HttpError): string {
  return JSON.stringify({ type: 'about:blank', title: STATUS_CODES[answer.status] ?? 'Error', status: answer.status, detail: answer.message, code: answer.code });
}

/**
 * A whole HTTP/1.1 response carrying `answer` as problem+json, closing the connection. To a HEAD
 * request the head alone, its Content-Length the body's it would have had (RFC 9110 §9.3.2: a
 * client reads no content after a HEAD's answer, and took the body for bytes after the close).
 */
export function rawProblem(answer: HttpError, method: string | null = null): string {
  const title = STATUS_CODES[answer.status] ?? 'Error';
  const body = problemBody(answer);
  return (
    `HTTP/1.1 ${answer.status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${method === 'HEAD' ? '' : body}`
  );
}
