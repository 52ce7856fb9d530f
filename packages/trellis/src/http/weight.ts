/**
 * The weight among the parameters of one member of Accept or Accept-Encoding (RFC 9110 §12.4.2):
 * `q` from 0 to 1; absent, empty or malformed counts as 1.
 */
export function weightOf(params: readonly string[]): number {
  let q = 1;
  for (const p of params) {
    const [k, v] = p.split('=').map((s) => s.trim());
    if (k?.toLowerCase() !== 'q') continue;
    const n = Number(v);
    q = v !== undefined && v !== '' && Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1;
  }
  return q;
}
