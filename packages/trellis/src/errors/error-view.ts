import { STATUS_CODES } from 'node:http';
import { HttpError } from '../kernel/http-error.ts';
import type { LogRecord } from '../logging/log-record.ts';
import { flattenError, type FlatException } from './flatten-error.ts';

/** What every error renderer gets: the public facts, plus the chain and log in debug only. */
export interface ErrorView {
  readonly status: number;
  readonly title: string;
  /** The exact message for 4xx; for 5xx outside debug only the status text, never internals. */
  readonly message: string;
  readonly code: string;
  readonly debug: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly chain: readonly FlatException[];
  readonly logs: readonly LogRecord[];
}

/**
 * 5xx whose messages are written for clients, fixed text with nothing of the server's state in it:
 * production says them too (a client is told to come back, and why), where every other 5xx says
 * only its status text.
 */
const PUBLIC_5XX = new Set(['database_unavailable', 'password_check_busy']);

export function errorView(error: HttpError, options: { debug: boolean; logs: readonly LogRecord[] }): ErrorView {
  const title = STATUS_CODES[error.status] ?? 'Error';
  const exposeMessage = options.debug || error.status < 500 || PUBLIC_5XX.has(error.code);
  return {
    status: error.status,
    title,
    message: exposeMessage ? error.message : title,
    code: error.code,
    debug: options.debug,
    headers: error.headers,
    extensions: exposeMessage ? error.extensions : {},
    chain: options.debug ? flattenError(error.status >= 500 && error.cause !== undefined ? error.cause : error) : [],
    logs: options.debug ? options.logs : [],
  };
}
