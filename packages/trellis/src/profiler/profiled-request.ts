import type { FastifyRequest } from 'fastify';
import type { LogRecord } from '../logging/log-record.ts';
import type { SubRequest } from '../kernel/sub-request.ts';
import type { Redaction } from './redact.ts';

/** A named instant of the request, in ms since it started (lifecycle phase boundaries). */
export interface TimelineMark {
  readonly name: string;
  readonly atMs: number;
}

export interface CapturedResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, unknown>>;
  /** The body as sent, when it was a string or a Buffer; streams are not captured. */
  readonly payload: string | Buffer | null;
}

/**
 * What collectors see of one profiled request (or sub-request). Built by the profiler from its
 * hooks and diagnostics_channel events; read-only for collectors.
 */
export interface ProfiledRequest {
  readonly token: string;
  readonly parentToken: string | null;
  readonly request: FastifyRequest;
  /** Set when this profile is a sub-request (e.g. the error rendering one). */
  readonly subRequest: SubRequest | null;
  /** Epoch ms. */
  readonly startTime: number;
  readonly marks: readonly TimelineMark[];
  /** The matched route pattern and params, when routing published them. */
  readonly route: { readonly pattern: string | null; readonly params: Readonly<Record<string, string>> } | null;
  /** Errors seen on `trellis:error`, in order. */
  readonly errors: readonly unknown[];
  readonly logs: readonly LogRecord[];
  readonly response: CapturedResponse | null;
  readonly statusCode: number;
  readonly durationMs: number;
  readonly maxBodyBytes: number;
  /** Redaction for this profile: collectors pass request-derived values through it. */
  readonly redaction: Redaction;
}
