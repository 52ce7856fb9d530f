/**
 * The candidate `name` was most likely meant as (a typo: `getColection`, `ipartal`), or null
 * when none is close: at most a third of its letters changed, added or removed, case aside.
 */
export function closestName(name: string, candidates: readonly string[]): string | null {
  const wanted = name.toLowerCase();
  const allowed = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | null = null;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    const d = distance(wanted, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance: single-letter edits from `a` to `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
