import { weightOf } from './weight.ts';

/**
 * Parsing of the Accept header (RFC 9110 §12.5.1): media ranges with their weights, in the order
 * that decides a match, most specific first.
 */
export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  /** 0 for any, 1 for type/ *, 2 for type/subtype, +1 with parameters (RFC 9110 §12.5.1 precedence). */
  readonly specificity: number;
  readonly index: number;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [{ type: '*', subtype: '*', q: 1, specificity: 0, index: 0 }];
  const ranges: MediaRange[] = [];
  header.split(',').forEach((part, index) => {
    const [mediaType, ...params] = part.split(';').map((s) => s.trim());
    if (!mediaType) return;
    const slash = mediaType.indexOf('/');
    if (slash <= 0) return;
    const type = mediaType.slice(0, slash).toLowerCase();
    const subtype = mediaType.slice(slash + 1).toLowerCase();
    const q = weightOf(params);
    // Parameters other than the weight make a range more specific.
    const extra = params.some((p) => {
      const key = p.split('=')[0]!.trim().toLowerCase();
      return key !== '' && key !== 'q';
    })
      ? 1
      : 0;
    const specificity = type === '*' ? 0 : subtype === '*' ? 1 : 2 + extra;
    ranges.push({ type, subtype, q, specificity, index });
  });
  return ranges;
}

/** The weight the client gives to one concrete media type: the most specific range matching it. */
export function qualityOf(mediaType: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.toLowerCase().split('/');
  let best: MediaRange | null = null;
  for (const r of ranges) {
    const matches = (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
    if (matches && (best === null || r.specificity > best.specificity)) best = r;
  }
  return best ? best.q : 0;
}
