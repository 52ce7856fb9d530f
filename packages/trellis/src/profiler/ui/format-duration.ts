/** A duration in milliseconds as the panels show it: two decimals under 10 ms, one above. */
export function formatMs(n: number): string {
  return `${n.toFixed(n < 10 ? 2 : 1)} ms`;
}

/** Bytes as megabytes with one decimal. */
export function formatMb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
