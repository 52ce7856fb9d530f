import { connect, createServer, type Server, type Socket } from 'node:net';

/** A loopback TCP proxy to a service, which a test can cut and restore (see `tcpProxy`). */
export interface TcpProxy {
  /** The service's URL with the proxy's host and port (scheme, credentials, path and query kept). */
  readonly url: string;
  readonly port: number;
  /** Drops every connection at once and refuses new ones: the service is gone, as seen by the app. */
  cut(): void;
  /**
   * A network partition: bytes stop flowing both ways, connections stay open (no reset reaches
   * either side) and new ones are accepted but get no answer.
   */
  stall(): void;
  /** Accepts connections again, on the same port; after a stall, bytes flow again where they stopped. */
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
  /** Each client and its upstream (null while stalled: connected when bytes flow again). */
  const pairs = new Map<Socket, Socket | null>();
  let stalled = false;
  let server: Server | null = null;
  let port = 0;
  const join = (client: Socket) => {
    const upstream = connect(Number(target.port || defaultPort), target.hostname || '127.0.0.1');
    pairs.set(client, upstream);
    sockets.add(upstream);
    upstream.on('error', () => {});
    upstream.on('close', () => {
      sockets.delete(upstream);
      // One side gone: the other goes too, as a dropped connection would.
      client.destroy();
    });
    client.pipe(upstream).pipe(client);
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        sockets.add(client);
        client.on('error', () => {});
        client.on('close', () => {
          sockets.delete(client);
          pairs.get(client)?.destroy();
          pairs.delete(client);
        });
        if (stalled) {
          client.pause();
          pairs.set(client, null);
        } else join(client);
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
    stall() {
      stalled = true;
      for (const [client, upstream] of pairs) {
        if (upstream === null) continue;
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async restore() {
      if (stalled) {
        stalled = false;
        for (const [client, upstream] of pairs) {
          if (upstream === null) join(client);
          else {
            client.pipe(upstream);
            upstream.pipe(client);
          }
        }
      }
      if (server === null) await listen();
    },
    async close() {
      stop();
    },
  };
}
