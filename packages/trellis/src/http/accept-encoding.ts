/**
 * Whether a content coding is acceptable under an Accept-Encoding field (RFC 9110 §12.5.3): the
 * coding named as itself (case-insensitively; `x-gzip` is `gzip`, §8.4.1.3) or, failing that, by
 * `*`, with a weight above 0. `gzip;q=0` refuses gzip, as `*;q=0` refuses every coding not named.
 * Without the field the server sends identity: nothing else is needed to read the answer.
 */
export function acceptsCoding(header: string | undefined, coding: string): boolean {
  if (header === undefined) return false;
  let named: number | null = null;
  let any: number | null = null;
  for (const part of header.split(',')) {
    const [token, ...params] = part.split(';').map((s) => s.trim());
    if (!token) continue;
    const name = token.toLowerCase() === 'x-gzip' ? 'gzip' : token.toLowerCase();
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k?.toLowerCase() === 'q') {
        const n = Number(v);
        // RFC 9110 §12.4.2: weights are 0..1; a bad one counts as 1, as in Accept (accept.ts).
        q = v !== undefined && v !== '' && Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1;
      }
    }
    if (name === coding) named = Math.max(named ?? 0, q);
    else if (name === '*') any = Math.max(any ?? 0, q);
  }
  return (named ?? any ?? 0) > 0;
}
