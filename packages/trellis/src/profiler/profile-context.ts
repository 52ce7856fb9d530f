import type { FastifyRequest } from 'fastify';
import type { LogRecord } from '../logging/log-record.ts';
import type { SubRequest } from '../kernel/sub-request.ts';
import type { CapturedResponse, ProfiledRequest, TimelineMark } from './profiled-request.ts';
import { Redaction } from './redact.ts';

/**
 * The profiler's mutable state for one request or sub-request, filled by hooks and channel events
 * while the request runs; collectors read it through {@link ProfiledRequest}.
 */
export class ProfileContext implements ProfiledRequest {
  token: string;
  readonly parentToken: string | null;
  readonly request: FastifyRequest;
  readonly subRequest: SubRequest | null;
  readonly startTime: number;
  /** `performance.now()` at the start, the origin of the marks. */
  readonly origin: number;
  readonly marks: TimelineMark[] = [];
  route: ProfiledRequest['route'] = null;
  readonly errors: unknown[] = [];
  readonly children: ProfileContext[] = [];
  response: CapturedResponse | null = null;
  statusCode = 0;
  durationMs = 0;
  readonly maxBodyBytes: number;
  readonly redaction: Redaction;

  constructor(init: {
    token: string;
    parentToken: string | null;
    request: FastifyRequest;
    subRequest: SubRequest | null;
    maxBodyBytes: number;
    redactKeys: readonly string[];
    startTime?: number;
    origin?: number;
  }) {
    this.token = init.token;
    this.parentToken = init.parentToken;
    this.request = init.request;
    this.subRequest = init.subRequest;
    this.startTime = init.startTime ?? Date.now();
    this.origin = init.origin ?? performance.now();
    this.maxBodyBytes = init.maxBodyBytes;
    this.redaction = new Redaction(init.redactKeys);
  }

  get logs(): readonly LogRecord[] {
    return this.subRequest ? this.subRequest.logs : (this.request.trellisScope?.logs ?? []);
  }

  mark(name: string, at = performance.now()): void {
    this.marks.push({ name, atMs: at - this.origin });
  }
}
