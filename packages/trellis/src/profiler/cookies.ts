/** The names of the cookies a Cookie header sends (RFC 6265 §5.4), each value shown redacted. */
export function requestCookies(header: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const text = Array.isArray(header) ? header.join('; ') : typeof header === 'string' ? header : '';
  for (const pair of text.split(';')) {
    const eq = pair.indexOf('=');
    const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (name !== '' && Object.keys(out).length < 100) out[name] = '[redacted]';
  }
  return out;
}

/** The cookies a response sets (Set-Cookie, RFC 6265 §4.1): name, value redacted, and the attributes as sent. */
export function responseCookies(header: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = Array.isArray(header) ? header.map(String) : typeof header === 'string' ? [header] : [];
  for (const line of lines.slice(0, 100)) {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (name === '') continue;
    out[name] = ['[redacted]', ...attributes.map((a) => a.trim()).filter((a) => a !== '')].join('; ');
  }
  return out;
}
