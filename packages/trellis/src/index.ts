export { createApp, type CreateAppOptions } from './app/create-app.ts';
export { loadConfig, ConfigError, type TrellisConfig, type ProfilerConfig, type JwtConfig } from './app/config.ts';
export { serve } from './app/serve.ts';
export { tlsCredentials, type TlsCredentials } from './app/tls-credentials.ts';
export { HttpError, isHttpError } from './kernel/http-error.ts';
export { errorCodes, type ErrorCode } from './kernel/error-codes.ts';
export type { TrellisContext } from './kernel/kernel-plugin.ts';
export { channels, publish, subscribe, type ChannelPayloads } from './observe/channels.ts';
export { html, raw, escapeHtml, safeHref, SafeHtml } from './html/html.ts';
export type { ErrorFormat } from './errors/error-format.ts';
export type { ErrorView } from './errors/error-view.ts';
export { createLogger } from './logging/create-logger.ts';
export type { LogRecord } from './logging/log-record.ts';

// resources (issue: resource API)

// security (issue: security firewall and CORS)

// docs (issue: API documentation)
