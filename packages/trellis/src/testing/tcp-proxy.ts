import { connect, createServer, type Server, type Socket } from 'node:net';

/** A loopback TCP proxy to a service, which a test can cut and restore (see `tcpProxy`). */
export interface TcpProxy {
  /** The service's URL with the proxy's host and port (scheme, credentials, path and query kept). */
  readonly url: string;
  readonly port: number;
  /** Drops every connection at once and refuses new ones: the service is gone, as seen by the app. */
  cut(): void;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Stands between an app and PostgreSQL or Redis so an outage can be simulated without stopping
 * the shared server: `cut()` destroys every piped socket and closes the listener (connections
 * are refused), `restore()` listens again on the same port.
 */
export async function tcpProxy(serviceUrl: string, defaultPort: number): Promise<TcpProxy> {
  const target = new URL(serviceUrl);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(Number(target.port || defaultPort), target.hostname || '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => {});
          socket.on('close', () => {
            sockets.delete(socket);
            // One side gone: the other goes too, as a dropped connection would.
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });
  await listen();
  const proxied = new URL(serviceUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  const stop = () => {
    server?.close();
    server = null;
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: proxied.href,
    port,
    cut: stop,
    restore: listen,
    async close() {
      stop();
    },
  };
}
