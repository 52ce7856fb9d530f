import type { Readable } from 'node:stream';
import { HttpError } from './http-error.ts';

/**
 * Reads a request body as UTF-8 text, at most `limit` bytes: a Content-Length over the limit is
 * refused before a byte is read, a body that grows past it is refused as soon as it does (413,
 * RFC 9110 §15.5.14). What is left unread is Node's to discard when the response ends.
 */
export function readBody(stream: Readable, limit: number, contentLength: string | undefined): Promise<string> {
  if (contentLength !== undefined && Number(contentLength) > limit) return Promise.reject(HttpError.of('body_too_large', { limit }));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
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
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // The client went away mid-body: nobody will read an answer, but the request must end.
    const onAborted = () => {
      cleanup();
      reject(HttpError.of('body_incomplete'));
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('aborted', onAborted);
  });
}
