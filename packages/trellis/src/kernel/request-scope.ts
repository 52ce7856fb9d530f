import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import type { LogRecord } from '../logging/log-record.ts';
import type { SubRequest } from './sub-request.ts';

/**
 * What the kernel knows about the request being handled, reachable from any code running on its
 * behalf (a database driver callback, a logger hook) without threading it through arguments.
 * Entered in the guard phase, only in the debug configuration: production pays nothing for it.
 */
export interface RequestScope {
  readonly request: FastifyRequest;
  /** Set while an error is rendered in a child context (see sub-request.ts). */
  readonly subRequest: SubRequest | null;
  /** Log records written on behalf of this request (or sub-request), in order. */
  readonly logs: LogRecord[];
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

export function currentRequestScope(): RequestScope | undefined {
  return requestScope.getStore();
}
