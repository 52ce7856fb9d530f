import { weightOf } from './weight.ts';

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
    const q = weightOf(params);
    if (name === coding) named = Math.max(named ?? 0, q);
    else if (name === '*') any = Math.max(any ?? 0, q);
  }
  return (named ?? any ?? 0) > 0;
}
