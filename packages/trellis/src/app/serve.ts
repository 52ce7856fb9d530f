import type { FastifyInstance } from 'fastify';
import type { TrellisConfig } from './config.ts';

/** HOST:PORT is taken or not ours to bind: said in one line naming the variables, not a stack. */
export class ListenError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ListenError';
  }
}

/**
 * How long a shutdown waits for requests in flight: 10 s, and longer than a query may take
 * (DATABASE_QUERY_TIMEOUT), so a request stuck on a slow database gets its 503 before the exit
 * rather than a reset connection (both were 10 s).
 */
export function shutdownGraceMs(config: Pick<TrellisConfig, 'databaseQueryTimeoutMs'>): number {
  return Math.max(10_000, config.databaseQueryTimeoutMs + 2_000);
}

/** What the operator reads when HOST:PORT cannot be listened on; null for a failure of another kind. */
function listenProblem(error: unknown, config: Pick<TrellisConfig, 'host' | 'port'>): string | null {
  switch ((error as { code?: string }).code) {
    case 'EADDRINUSE':
      return `${config.host}:${config.port} is already in use by another process (HOST, PORT).`;
    case 'EACCES':
      return `${config.host}:${config.port} may not be bound by this user (HOST, PORT: ports under 1024 need privileges).`;
    case 'EADDRNOTAVAIL':
      return `${config.host} is not an address of this machine (HOST).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${config.host} is not a host name this machine can resolve (HOST).`;
    default:
      return null;
  }
}

/**
 * Listens on HOST:PORT (the app's configuration unless `config` is given) and shuts down
 * gracefully on SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close resources
 * (onClose hooks), and exit; forced after `graceMs`. When it cannot listen, the app is closed
 * before the error is thrown: its database pool and profiler thread would otherwise keep the
 * process alive after the one line that says why it did not start.
 */
export async function serve(app: FastifyInstance, config: TrellisConfig = app.trellis.config, graceMs = shutdownGraceMs(config)): Promise<string> {
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close().catch((closeError: unknown) => app.log.error({ err: closeError }, 'Error while closing the app that could not listen'));
    const problem = listenProblem(error, config);
    throw problem === null ? error : new ListenError(problem, { cause: error });
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      app.log.info({ signal }, `Received ${signal} while shutting down; still waiting for requests in flight`);
      return;
    }
    closing = true;
    app.log.info({ signal }, `Received ${signal}, shutting down`);
    const timer = setTimeout(() => {
      app.log.error(`Shutdown took longer than ${graceMs} ms, exiting`);
      process.exit(1);
    }, graceMs);
    timer.unref();
    // Keep-alive connections that finish their last request after close() began become idle
    // later; close those as they appear so close() can resolve once in-flight work is done.
    const server = app.server as { closeIdleConnections?: () => void };
    const sweeper = setInterval(() => server.closeIdleConnections?.(), 50);
    sweeper.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'Error while shutting down');
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second signal with no listener kills the process at once, its requests in
  // flight reset and its queued profiles lost. Ctrl-C on `npm start` sends two (the terminal's
  // SIGINT to the process group, and npm forwarding its own); a supervisor may repeat SIGTERM.
  // The grace timer still bounds the exit.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return address;
}
