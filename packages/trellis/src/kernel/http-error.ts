import { STATUS_CODES } from 'node:http';
import { errorCodes, type ErrorCode } from './error-codes.ts';
import { currentRequestScope } from './request-scope.ts';

export interface HttpErrorOptions {
  readonly cause?: unknown;
  /** Response headers that belong to the error, e.g. `Allow` on a 405 (RFC 9110 §10.2.1). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra members for the problem document (RFC 9457 §3.2 extension members). */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/**
 * An error with an HTTP status. Thrown anywhere in the lifecycle, it becomes a response with that
 * status and its exact message; anything else thrown becomes a 500.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly extensions: Readonly<Record<string, unknown>>;
  /** Display name in debug chains; defaults to the table's exception class for the code. */
  readonly className: string;

  constructor(status: number, code: string, message: string, options: HttpErrorOptions & { className?: string } = {}) {
    // A stack trace is only ever shown by the debug configuration, whose requests run in a
    // request scope; elsewhere (production, a bot scanning for /.env) capturing one is waste.
    const stackTraceLimit = Error.stackTraceLimit;
    if (currentRequestScope() === undefined) Error.stackTraceLimit = 0;
    try {
      super(message, options.cause === undefined ? undefined : { cause: options.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
    this.className = options.className ?? 'HttpException';
  }

  get title(): string {
    return STATUS_CODES[this.status] ?? 'Error';
  }

  /** Builds the error for a code of the table, with its status and exact message. */
  static of(code: ErrorCode, params: Record<string, string | number | undefined> = {}, options: HttpErrorOptions = {}): HttpError {
    const def = errorCodes[code];
    return new HttpError(def.status, code, def.message(params), { ...options, className: def.className });
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
