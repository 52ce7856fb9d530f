/**
 * How long a profiler page waits for the profiles queued before it to be stored. Normally they
 * are within milliseconds, and a search made right after a request finds it. With the store gone
 * (Redis cut), its writes fail only after the client's retries, batch after batch, and under load
 * a page waited for the whole backlog: over 30 s, until the store came back. Past this the page
 * reads what is stored, and a store still away answers 503 (from-store.ts).
 */
export const PAGE_SETTLE_MS = 2000;

/** `settled`, bounded: resolves when it does, or after `ms`, whichever comes first. */
export function settledWithin(settled: () => Promise<void>, ms: number = PAGE_SETTLE_MS): () => Promise<void> {
  return () => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    return Promise.race([settled(), waited]).finally(() => clearTimeout(timer));
  };
}
