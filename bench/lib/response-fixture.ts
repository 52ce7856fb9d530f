/** A response captured from one server so another (the raw ceiling) can send the same bytes. */
export interface ResponseFixture {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Base64, so any bytes survive the JSON file. */
  readonly body: string;
}

/** Headers that describe the connection or one particular response, not the resource. */
const NOT_COPIED = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-debug-token', 'x-debug-token-link', 'server-timing']);

export function toFixture(method: string, path: string, status: number, headers: Headers, body: Uint8Array): ResponseFixture {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!NOT_COPIED.has(name)) kept[name] = value;
  });
  return { method, path, status, headers: kept, body: Buffer.from(body).toString('base64') };
}
