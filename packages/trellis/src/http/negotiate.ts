import { parseAccept, qualityOf } from './accept.ts';

/**
 * Proactive negotiation (RFC 9110 §12.5.1): picks among `available` (in server preference order)
 * the media type the client weighs highest; ties go to the server's order. Returns null when the
 * client accepts none of them (the caller answers 406, RFC 9110 §15.5.7).
 */
export function negotiate(acceptHeader: string | undefined, available: readonly string[]): string | null {
  const ranges = parseAccept(acceptHeader);
  let best: string | null = null;
  let bestQ = 0;
  for (const mediaType of available) {
    const q = qualityOf(mediaType, ranges);
    if (q > bestQ) {
      best = mediaType;
      bestQ = q;
    }
  }
  return best;
}
