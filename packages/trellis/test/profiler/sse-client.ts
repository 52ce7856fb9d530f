import http from 'node:http';

/** A server-sent event as the HTML spec's parser dispatches it (id, data), or a comment line. */
export interface SseItem {
  readonly id?: string;
  readonly data?: string;
  readonly comment?: string;
  readonly retry?: string;
}

/**
 * A minimal event-stream reader over a real socket, for tests: `next(predicate)` resolves with the
 * first item (event or comment) matching, reading as much of the stream as it takes.
 */
export class SseClient {
  readonly response: http.IncomingMessage;
  readonly #items: SseItem[] = [];
  readonly #waiters: { test: (item: SseItem) => boolean; resolve: (item: SseItem) => void; reject: (error: Error) => void }[] = [];
  #buffer = '';
  #ended = false;
  readonly ended: Promise<void>;

  private constructor(response: http.IncomingMessage) {
    this.response = response;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.#read(chunk));
    this.ended = new Promise((resolve) =>
      response.on('close', () => {
        this.#ended = true;
        for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error('stream ended'));
        resolve();
      }),
    );
  }

  static open(port: number, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream', ...headers } }, (res) => resolve(new SseClient(res)));
      request.on('error', reject);
    });
  }

  /** Every item read so far. */
  get items(): readonly SseItem[] {
    return this.#items;
  }

  /**
   * The first item matching, waiting for it at most `timeoutMs`: an event that never comes fails
   * the test that waits for it, instead of leaving the whole run waiting (once, under two files
   * at a time, a cross-process event never came and `npm test` hung).
   */
  next(test: (item: SseItem) => boolean, timeoutMs = 15_000): Promise<SseItem> {
    const seen = this.#items.find(test);
    if (seen) return Promise.resolve(seen);
    if (this.#ended) return Promise.reject(new Error('stream ended'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(new Error(`no matching item within ${timeoutMs} ms; read so far: ${JSON.stringify(this.#items).slice(0, 500)}`));
      }, timeoutMs);
      const waiter = {
        test,
        resolve: (item: SseItem) => (clearTimeout(timer), resolve(item)),
        reject: (error: Error) => (clearTimeout(timer), reject(error)),
      };
      this.#waiters.push(waiter);
    });
  }

  close(): void {
    this.response.destroy();
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const event: Record<string, string> = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.#push({ comment: line.slice(1).trim() });
        else {
          const colon = line.indexOf(':');
          event[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
        }
      }
      if (Object.keys(event).length > 0) this.#push(event);
    }
  }

  #push(item: SseItem): void {
    this.#items.push(item);
    for (const waiter of [...this.#waiters]) {
      if (waiter.test(item)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(item);
      }
    }
  }
}

/** The parsed data of an event whose data is JSON naming this URL path. */
export const forPath = (path: string) => (item: SseItem) => item.data !== undefined && (JSON.parse(item.data) as { url: string }).url.endsWith(path);
