import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogRecord } from '../logging/log-record.ts';

/**
 * What code running on behalf of a request reaches without threading it through arguments (a
 * logger hook): the request's log. Entered in the guard phase, only in the debug configuration:
 * production pays nothing for it.
 *
 * It holds nothing else, the request least of all. An async context outlives its request in every
 * timer, pooled socket or promise created while it ran (a keep-alive socket's timer until the
 * connection's next request): when the scope held the request, each idle connection kept its last
 * request's body alive, a 900 KB upload as well as a one-line GET.
 */
export interface RequestScope {
  /** Log records written on behalf of this request (or sub-request), in order. */
  readonly logs: LogRecord[];
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

export function currentRequestScope(): RequestScope | undefined {
  return requestScope.getStore();
}
