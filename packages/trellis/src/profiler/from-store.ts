import { HttpError } from '../kernel/http-error.ts';

/**
 * The store's failures (Redis away, an unreadable file) are a 503 page saying so, with
 * Retry-After, never a 500: the profiler is only as available as its store.
 */
export async function fromStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw HttpError.of('profile_store_unavailable', { reason }, { cause: error, headers: { 'retry-after': '5' } });
  }
}
