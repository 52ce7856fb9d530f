import type { Readable } from 'node:stream';
import { HttpError } from './http-error.ts';
import { ellipsis } from '../logging/cut-string.ts';
import { cutByRequestTimeout } from './client-error-handler.ts';
import { TurnQueue } from './turn-queue.ts';
import type { BodyBudget } from './body-budget.ts';

const noop = () => {};

/**
 * A body this large is handed on in a turn of the event loop of its own (turn-queue.ts). Smaller
 * ones cost their request less than a turn costs.
 */
const LARGE_BODY_BYTES = 64 * 1024;
const largeBodies = new TurnQueue();

/** The first content coding listed other than `identity` (RFC 9110 §8.4), or null when none is. */
function unsupportedCoding(header: string | undefined): string | null {
  if (header === undefined) return null;
  for (const part of header.split(',')) {
    const coding = part.trim().toLowerCase();
    if (coding !== '' && coding !== 'identity') return ellipsis(coding, 40);
  }
  return null;
}

/** What `readBody` needs besides the stream. */
export interface ReadBodyOptions {
  /** Most bytes the body may have (BODY_LIMIT). */
  readonly limit: number;
  readonly contentLength: string | undefined;
  readonly contentEncoding?: string | undefined;
  /** Where a large body waits for memory before it is read (BODY_MEMORY); read at once when absent. */
  readonly budget?: BodyBudget | undefined;
}

/**
 * Reads a request body as UTF-8 text, at most `limit` bytes: a Content-Length over the limit is
 * refused before a byte is read, a body that grows past it is refused as soon as it does (413,
 * RFC 9110 §15.5.14). A body in a content coding (gzip…) is refused unread, 415. What is left
 * unread is Node's to discard when the response ends. A body of 64 KB or more, or of unknown
 * length (chunked, RFC 9112 §7.1), is read once the budget has room for it, counted at its
 * Content-Length or else at the limit.
 */
export function readBody(stream: Readable, options: ReadBodyOptions): Promise<string> {
  const { limit, contentLength, budget } = options;
  const coding = unsupportedCoding(options.contentEncoding);
  if (coding !== null) return Promise.reject(HttpError.of('unsupported_content_encoding', { encoding: coding }, { headers: { 'accept-encoding': 'identity' } }));
  const declared = contentLength === undefined ? null : Number(contentLength);
  if (declared !== null && declared > limit) return Promise.reject(HttpError.of('body_too_large', { limit }));
  return new Promise((resolveBody, rejectBody) => {
    const bytes = declared !== null && Number.isFinite(declared) ? declared : limit;
    const large = bytes >= LARGE_BODY_BYTES;
    const chunks: Buffer[] = [];
    let size = 0;
    let done = noop;
    const resolve = (text: string) => {
      done();
      resolveBody(text);
    };
    const reject = (error: unknown) => {
      done();
      rejectBody(error);
    };
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        stream.pause();
        reject(HttpError.of('body_too_large', { limit }));
        return;
      }
      chunks.push(chunk);
    };
    const decode = () => {
      try {
        resolve(Buffer.concat(chunks, size).toString('utf8'));
      } catch (error) {
        // Past the longest string V8 makes (a body limit set over ~512 MB): refused, not thrown
        // out of a stream's event.
        reject(error);
      }
    };
    const onEnd = () => {
      cleanup();
      // A large body waits for a turn of its own: its request's work would otherwise join that
      // of every other body ended in this turn, and new connections wait for all of it.
      if (size < LARGE_BODY_BYTES) decode();
      else largeBodies.run(decode);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // The client went away mid-body: nobody will read an answer, but the request must end. Or
    // REQUEST_TIMEOUT cut it, and the client was answered 408: the request ends as what it got.
    const onAborted = () => {
      cleanup();
      reject(HttpError.of(cutByRequestTimeout((stream as { socket?: object }).socket) ? 'request_timeout' : 'body_incomplete'));
    };
    // Listened to while the body waits too: a client gone, or cut by the deadline, leaves the queue.
    stream.once('error', onError);
    stream.once('aborted', onAborted);
    const start = () => {
      stream.on('data', onData);
      stream.once('end', onEnd);
    };
    if (budget === undefined || !large) start();
    else done = budget.admit(bytes, start);
  });
}
