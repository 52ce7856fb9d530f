import type { Readable } from 'node:stream';
import { HttpError } from './http-error.ts';
import { ellipsis } from '../logging/cut-string.ts';
import { cutByRequestTimeout } from './client-error-handler.ts';
import { TurnQueue } from './turn-queue.ts';
import { whenDeadlinePasses } from './http2-deadline.ts';
import type { BodyBudget, BudgetedBody } from './body-budget.ts';
import { handsOutOwnCopies, releaseBuffer } from './release-buffers.ts';

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
  /** What large bodies may hold together while read (BODY_MEMORY); unbounded when absent. */
  readonly budget?: BodyBudget | undefined;
  /** Told when the body starts waiting for the budget (true) and when it is read again (false). */
  readonly onWait?: ((waiting: boolean) => void) | undefined;
}

/**
 * Reads a request body as UTF-8 text, at most `limit` bytes: a Content-Length over the limit is
 * refused before a byte is read, a body that grows past it is refused as soon as it does (413,
 * RFC 9110 §15.5.14). A body in a content coding (gzip…) is refused unread, 415. What is left
 * unread is discarded: by Node when the response ends, or here once reading has begun. A body of 64 KB or more, or of unknown
 * length (chunked, RFC 9112 §7.1), is read once the budget has room for it, counted at its
 * Content-Length or else at the limit (body-budget.ts).
 */
export function readBody(stream: Readable, options: ReadBodyOptions): Promise<string> {
  const { limit, contentLength, budget } = options;
  const coding = unsupportedCoding(options.contentEncoding);
  if (coding !== null) return Promise.reject(HttpError.of('unsupported_content_encoding', { encoding: coding }, { headers: { 'accept-encoding': 'identity' } }));
  const declared = contentLength === undefined ? null : Number(contentLength);
  if (declared !== null && declared > limit) return Promise.reject(HttpError.of('body_too_large', { limit }));
  // The client went away before the body was read (it closed its side while access control ran):
  // no event will come, and the request waited for ever, holding its share of the budget.
  if (stream.destroyed) return Promise.reject(HttpError.of(cutByRequestTimeout((stream as { socket?: object }).socket) ? 'request_timeout' : 'body_incomplete'));
  return new Promise((resolveBody, rejectBody) => {
    const expected = declared !== null && Number.isFinite(declared) ? declared : limit;
    const chunks: Buffer[] = [];
    let size = 0;
    let counted: BudgetedBody | null = null;
    // The chunks are ours to free once copied when Node copied them for us and nobody else
    // listened to them (release-buffers.ts): a large body's memory is then given back at once.
    let own = handsOutOwnCopies(stream);
    const release = () => {
      if (own) for (const chunk of chunks) releaseBuffer(chunk);
      chunks.length = 0;
    };
    const resolve = (text: string) => {
      counted?.close();
      forget();
      resolveBody(text);
    };
    const reject = (error: unknown) => {
      counted?.close();
      forget();
      release();
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
        // The rest is read and dropped, as Node drops a body nobody started reading: once read
        // from, a stream is no longer Node's to discard when the response ends, and paused here
        // it held the connection, so a keep-alive client's next request (a chunked upload refused
        // 413, then anything) waited for ever. REQUEST_TIMEOUT bounds a body that never ends.
        stream.resume();
        reject(HttpError.of('body_too_large', { limit }));
        return;
      }
      if (own && stream.listenerCount('data') > 1) own = false;
      chunks.push(chunk);
      counted?.add(chunk.length);
    };
    const decode = () => {
      try {
        const joined = Buffer.concat(chunks, size);
        const text = joined.toString('utf8');
        // A small body's few chunks cost less left to the collector than freeing them costs.
        if (size >= LARGE_BODY_BYTES) {
          release();
          // A copy of our own (never a slice of Node's pool at this size): freed now too.
          releaseBuffer(joined);
        }
        resolve(text);
      } catch (error) {
        // Past the longest string V8 makes (a body limit set over ~512 MB): refused, not thrown
        // out of a stream's event.
        reject(error);
      }
    };
    const onEnd = () => {
      cleanup();
      counted?.end();
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
    // An HTTP/2 request's deadline passed (http2-deadline.ts): it ends as what it got, 408.
    const forget = whenDeadlinePasses(stream, () => {
      cleanup();
      reject(HttpError.of('request_timeout'));
    });
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('aborted', onAborted);
    // A small body is read at once: it holds little, and waiting would only delay it. A large one
    // that must wait is paused at once: no chunk is taken before it is admitted.
    if (budget !== undefined && expected >= LARGE_BODY_BYTES) {
      counted = budget.open(
        expected,
        () => {
          stream.pause();
          options.onWait?.(true);
        },
        () => {
          options.onWait?.(false);
          stream.resume();
        },
        () => stream.readableLength > 0,
      );
    }
  });
}
