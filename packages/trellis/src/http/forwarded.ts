/**
 * The `for` parameters of a Forwarded header (RFC 7239 §4, §6), in order, as bare addresses
 * (quotes, brackets and ports removed). Obfuscated identifiers and "unknown" are kept as given.
 */
export function forwardedFor(header: string): string[] {
  const out: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== 'for') continue;
      let value = pair.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (value.startsWith('[')) value = value.slice(1, value.indexOf(']'));
      else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
      out.push(value);
    }
  }
  return out;
}

/** Client addresses listed by X-Forwarded-For, in order. */
export function xForwardedFor(header: string): string[] {
  return header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
