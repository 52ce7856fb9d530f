import type { ServerResponse } from 'node:http';

export interface LiveStreamsOptions {
  /** Most streams open at once; past it a live view is refused (503) until one closes. */
  readonly max: number;
  /** Interval of the comment lines that keep idle streams open through proxies. */
  readonly heartbeatMs: number;
}

/**
 * A client that reads slower than requests come in: past this much queued, its stream is ended
 * rather than buffered without bound. EventSource reconnects with Last-Event-ID (live-route.ts).
 */
const MAX_QUEUED_BYTES = 1 << 20;

/**
 * The open server-sent event streams of the live view: bounded in number, kept alive by
 * heartbeats, and ended all at once when the app closes, so `app.close()` never waits on a
 * browser tab. Event stream syntax: HTML Living Standard §9.2.6 ("Interpreting an event stream"):
 * `id:`/`data:` fields, a blank line ends an event, a line starting with a colon is a comment.
 */
export class LiveStreams {
  readonly #options: LiveStreamsOptions;
  readonly #open = new Set<ServerResponse>();
  #heartbeat: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(options: LiveStreamsOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#open.size;
  }

  /** Whether one more stream may open (the route refuses with a 503 when not). */
  get full(): boolean {
    return this.#closed || this.#open.size >= this.#options.max;
  }

  /**
   * Takes a response whose head is written; `onEnd` runs once, however it ends (the client
   * left, the app closed, the client was too slow).
   */
  add(response: ServerResponse, onEnd: () => void): void {
    this.#open.add(response);
    response.once('close', () => {
      this.#open.delete(response);
      if (this.#open.size === 0) this.#stopHeartbeat();
      onEnd();
    });
    this.#heartbeat ??= setInterval(() => this.#beat(), this.#options.heartbeatMs).unref();
  }

  /** Writes an event (or comment) text; ends the stream of a client that does not keep up. */
  write(response: ServerResponse, text: string): void {
    if (response.writableEnded || response.destroyed) return;
    response.write(text);
    if (response.writableLength > MAX_QUEUED_BYTES) response.end();
  }

  /** Ends every stream and refuses new ones (the app is closing). */
  close(): void {
    this.#closed = true;
    for (const response of this.#open) response.end();
    this.#stopHeartbeat();
  }

  #beat(): void {
    for (const response of this.#open) this.write(response, ': heartbeat\n\n');
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}

/** One event of the stream: its id (what Last-Event-ID sends back) and its data as JSON. */
export function sseEvent(id: string, data: unknown): string {
  // JSON.stringify escapes line breaks inside strings, so the data is one `data:` line.
  return `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}
