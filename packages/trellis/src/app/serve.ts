import type { FastifyInstance } from 'fastify';
import type { TrellisConfig } from './config.ts';

/**
 * Listens on HOST:PORT and shuts down gracefully on SIGTERM/SIGINT: stop accepting, let in-flight
 * requests finish, close resources (onClose hooks), and exit; forced after `graceMs`.
 */
export async function serve(app: FastifyInstance, config: TrellisConfig, graceMs = 10_000): Promise<string> {
  const address = await app.listen({ host: config.host, port: config.port });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
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
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return address;
}
