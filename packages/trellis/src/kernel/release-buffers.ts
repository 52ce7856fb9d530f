import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * Whether the chunks a stream hands out are copies nobody else holds, which the reader may free
 * once it has copied them: true for an HTTP/1.x request from a socket, whose parser copies each
 * piece of body into a buffer of its own (node_http_parser.cc, `on_body`: `Buffer::Copy`). Not for
 * anything else: an injected request (light-my-request) or a stream built by the app may hand out
 * buffers its caller still uses, and an HTTP/2 stream's chunks are Node's to manage.
 */
export function handsOutOwnCopies(stream: Readable): boolean {
  // TLS sockets too (tls.TLSSocket is a net.Socket): the parser copies what TLS decrypted.
  return stream instanceof IncomingMessage && stream.httpVersionMajor === 1 && stream.socket instanceof Socket;
}

/**
 * Frees a buffer's memory now instead of at the next full garbage collection, when it is the
 * whole of its ArrayBuffer: `ArrayBuffer.prototype.transfer(0)` (ES2024) detaches it, and V8 frees
 * a detached backing store at once. Only for buffers nobody else can reach (see handsOutOwnCopies):
 * a detached buffer reads as empty. A buffer that shares its ArrayBuffer (a slice of Node's pool) is
 * left alone.
 *
 * Why: a 900 KB upload arrives as fifteen 64 KB chunks, allocated below malloc's mmap threshold
 * in its main arena, and is joined into one more 900 KB copy. Left to the collector, the chunks
 * of every upload since the last full collection stayed allocated, about 35 uploads' worth, and
 * the arena they had spread over was never given back: under 100 connections uploading 900 KB
 * (bench/soak.ts), the process's brk heap held 127 MB of a 330 MB RSS, 110 MB of it still
 * allocated. Freed as soon as they are copied, the same few chunks' memory is reused.
 */
export function releaseBuffer(buffer: Uint8Array): void {
  const whole = buffer.buffer;
  if (!(whole instanceof ArrayBuffer) || whole.resizable || buffer.byteOffset !== 0 || buffer.byteLength !== whole.byteLength || whole.byteLength === 0) return;
  try {
    whole.transfer(0);
  } catch {
    // Not detachable (V8 refuses for some buffers, e.g. a WebAssembly memory's): the collector frees it.
  }
}
