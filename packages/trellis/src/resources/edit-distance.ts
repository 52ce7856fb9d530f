/** One row of the table, reused: the profiler traces a 404's routes with it, on the request thread. */
let row = new Uint32Array(64);

/**
 * Levenshtein distance: single-letter edits (change, add, remove) from `a` to `b`. One row of the
 * table, updated in place (the diagonal kept aside), rather than a fresh array per row.
 */
export function editDistance(a: string, b: string): number {
  const n = b.length;
  if (row.length <= n) row = new Uint32Array(n + 1);
  for (let j = 0; j <= n; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    const letter = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (letter === b.charCodeAt(j - 1) ? 0 : 1));
      diagonal = above;
    }
  }
  return row[n]!;
}
