import { editDistance } from './edit-distance.ts';

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
    const d = editDistance(wanted, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
