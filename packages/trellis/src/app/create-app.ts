import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { clientErrorHandler } from '../kernel/client-error-handler.ts';
import { answerProtocolRefusals, capPipelinedRequests } from '../kernel/protocol-refusals.ts';
import { rerouteMalformedUrl } from '../kernel/malformed-url.ts';
import { http2Deadline, whenAnsweredByDeadline } from '../kernel/http2-deadline.ts';
import type { Http2SecureServer } from 'node:http2';
import type { ServerOptions } from 'node:http';
import type { Logger } from 'pino';
import { loadConfig, type TrellisConfig } from './config.ts';
import { tlsCredentials, type TlsCredentials } from './tls-credentials.ts';
import { entrypointPlugin } from './entrypoint-plugin.ts';
import { createLogger } from '../logging/create-logger.ts';
import { kernelPlugin } from '../kernel/kernel-plugin.ts';
import { requestLogPlugin } from '../logging/request-log-plugin.ts';
import { guardPlugin } from '../kernel/guard-plugin.ts';
import { corsPlugin } from '../http/cors-plugin.ts';
import { profilerPlugin, type ProfilerPluginOptions } from '../profiler/profiler-plugin.ts';
import { securityPlugin, type SecurityOptions } from '../security/security-plugin.ts';
import { resourcesPlugin } from '../resources/resources-plugin.ts';
import { onDatabaseError, openDatabase, type Database } from '../data/database.ts';
import { OncePerInterval } from '../logging/once-per-interval.ts';
import { docsPlugin, type DocsPluginOptions } from '../docs/docs-plugin.ts';

export interface CreateAppOptions {
  /** Defaults to `loadConfig(process.env)`. */
  readonly config?: TrellisConfig;
  /** The service's name, shown by the entrypoint and the docs. */
  readonly name?: string;
  /** A pino logger; defaults to one built from the config (JSON lines on stdout). */
  readonly logger?: Logger;
  /** Overrides TLS_CERT/TLS_KEY/HTTPS; `null` forces plain HTTP. */
  readonly tls?: TlsCredentials | null;
  /** Directory for generated files (self-signed certificate); default `var`. */
  readonly varDir?: string;
  /** The declared resources (see defineResource). */
  readonly resources?: readonly unknown[];
  /** A database handle; defaults to one opened from DATABASE_URL when resources are declared. */
  readonly database?: unknown;
  /** Firewall options: authenticators, voters, path rules. */
  readonly security?: SecurityOptions;
  /** The OpenAPI document's `info.contact` and `servers` (default: the origin it is asked on). */
  readonly docs?: Pick<DocsPluginOptions, 'contact' | 'servers'>;
  /** Profiler options (storage, collectors); the profiler exists only in debug. */
  readonly profiler?: Partial<Omit<ProfilerPluginOptions, 'config'>>;
}

/**
 * Builds a Trellis application: a Fastify 5 instance with the kernel and the features wired in
 * lifecycle order (see kernel/lifecycle.md). The result is a plain Fastify instance: register any
 * Fastify plugin or route on it before `listen()`/`ready()`.
 */
export async function createApp(options: CreateAppOptions = {}): Promise<FastifyInstance> {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger({ level: config.logLevel, captureRequestRecords: config.debug });
  const tls = options.tls === undefined ? await tlsCredentials(config, options.varDir) : options.tls;

  const checkEveryMs = Math.min(1000, Math.max(100, Math.round(config.requestTimeoutMs / 10)));
  const serverOptions: FastifyServerOptions & { http?: ServerOptions } = {
    loggerInstance: logger,
    // One line per request, written by requestLogPlugin when the response is done.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    // A client that stops sending (a stalled body, a slowloris) is cut off instead of holding a
    // socket forever: the socket closes after this long without a byte. Two checks later than
    // the request deadline below, so that a request still incomplete is answered 408 first; at
    // the same time, the idle socket was closed silently before Node's check could answer.
    connectionTimeout: config.requestTimeoutMs + 2 * checkEveryMs,
    requestTimeout: config.requestTimeoutMs,
    // A whole-request deadline (RFC 9110 §15.5.9, 408): headers and body must both arrive within
    // REQUEST_TIMEOUT, however slowly they dribble. Node checks open requests only every
    // connectionsCheckingInterval (30 s by default, so a 5 s limit cut after up to 35 s): checked
    // ten times per limit here, at most once a second, so a cut comes within 10 % of it.
    http: {
      headersTimeout: config.requestTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
      // A request without Host reaches the guard, which answers it in problem+json (missing_host);
      // Node's own check answered a bare 400 with no body.
      requireHostHeader: false,
    },
    return503OnClosing: true,
    exposeHeadRoutes: true,
    // Fastify derives protocol and host from X-Forwarded-* only for these peers.
    trustProxy: config.trustedProxies.length > 0 ? [...config.trustedProxies] : false,
    // No limit of the router's own on a path parameter: past it find-my-way refused the request
    // before any hook ran (a 414 with Fastify's code, no security headers, no profile, and the
    // profiler's paths told apart from others for a client its gate refuses). The request line is
    // bounded by Node's header limit (431), and a long id is an ordinary 404 from its provider.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: Number.MAX_SAFE_INTEGER },
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => {
      // A path the router cannot decode goes round once more, through every hook (malformed-url.ts).
      if (error.code === 'FST_ERR_BAD_URL' && rerouteMalformedUrl(app, request, reply)) return;
      app.trellis.handleError(error, request, reply);
    },
  };
  // HTTP/2 over TLS, with HTTP/1.1 for clients that do not offer h2 in ALPN.
  const app = (
    tls
      ? // The TLS server takes the HTTP/1.1 fallback's settings (deadlines, Host) with its own options.
        // At most 100 streams at once per connection (RFC 9113 §5.1.2, as Apache; nginx 128): Node
        // allows 2^32 - 1, and a stream paused for BODY_MEMORY still takes in its flow-control
        // window (64 KB), so one connection's 3,000 streams held 130 MB past a 150 KB budget.
        Fastify({ ...(serverOptions as object), http2: true, https: { allowHTTP1: true, cert: tls.cert, key: tls.key, settings: { maxConcurrentStreams: 100 }, ...serverOptions.http } })
      : Fastify(serverOptions as FastifyServerOptions)
  ) as unknown as FastifyInstance;

  answerProtocolRefusals(app.server as unknown as Parameters<typeof answerProtocolRefusals>[0]);
  // HTTP/2 streams: Node's deadline options above are HTTP/1.1's only.
  if (tls) {
    http2Deadline(app.server as unknown as Http2SecureServer, config.requestTimeoutMs);
    app.addHook('onRequest', (request, reply, done) => {
      if (request.raw.httpVersionMajor === 2) whenAnsweredByDeadline(request.raw, () => reply.hijack());
      done();
    });
  }
  capPipelinedRequests(app.server, app.log);

  const name = options.name ?? 'Trellis API';
  const resources = options.resources ?? [];
  // Resources need a database: open one from DATABASE_URL unless the caller brings its own (and closes it).
  const database = options.database ?? (resources.length > 0 ? openDatabase(config.databaseUrl, { queryTimeoutMs: config.databaseQueryTimeoutMs }) : null);
  if (database !== null && options.database === undefined) app.addHook('onClose', () => (database as Database).destroy());
  if (database !== null) {
    // Idle connections the server dropped: reported once per interval, never a crash.
    const dropped = new OncePerInterval(10_000);
    const unsubscribe = onDatabaseError(database as Database, (error) => {
      const count = dropped.hit();
      if (count !== null) app.log.warn({ channel: 'database', err: { message: error.message }, count }, `Database connection lost: ${error.message} (${count} since the last report); reconnecting on the next query.`);
    });
    app.addHook('onClose', async () => unsubscribe());
  }

  try {
    // Registration order is hook order; it follows the phases of kernel/lifecycle.md.
    await app.register(kernelPlugin, { config });
    // preflight: CORS answers preflights before profiling, routing and authentication costs.
    await app.register(corsPlugin, { config });
    // The profiler opens its context before the guard, so a 400 from the guard is profiled too.
    if (config.debug && config.profiler.enabled) await app.register(profilerPlugin, { config, database, ...options.profiler });
    await app.register(guardPlugin, { config });
    await app.register(requestLogPlugin, { debug: config.debug, redactKeys: config.profiler.redactKeys });
    // firewall: authentication and path rules (preParsing: before the body).
    await app.register(securityPlugin, { config, database, ...options.security });
    await app.register(entrypointPlugin, { name });
    await app.register(resourcesPlugin, { config, name, resources, database });
    await app.register(docsPlugin, { name, resources, ...options.docs });
  } catch (error) {
    // The caller never gets the app to close: what the plugins registered so far opened (the
    // profiler's thread and store, the database opened here) is closed now, or it would keep
    // the process alive after the error that stopped startup.
    await app.close().catch((closeError: unknown) => app.log.error({ err: closeError }, 'Error while closing the app that could not be built'));
    throw error;
  }
  return app;
}
