import { REDACTED } from '../../logging/redact-secrets.ts';
import type { RequestData } from '../panels/request/request-collector.ts';
import type { Profile } from '../profile.ts';
import { dataOf } from '../ui/panels/panel.ts';
import { absoluteProfileUrl } from './har-document.ts';
import { shellWord, type WordPart } from './shell-word.ts';

/** A redacted value of the request, as the shell variable the user sets to replay it. */
export interface Placeholder {
  readonly variable: string;
  /** What it stands for ("the authorization header"). */
  readonly stands: string;
}

export interface CurlCommand {
  /** The command line, one option per line (each line but the last ending in a backslash). */
  readonly text: string;
  /** Variables to set before running it, in order of first use. */
  readonly placeholders: readonly Placeholder[];
  /** What it cannot replay as sent (a body not recorded, or cut). */
  readonly notes: readonly string[];
}

/**
 * Headers curl must not be handed: connection-specific ones (RFC 9110 §7.6.1, RFC 9113 §8.2.2),
 * those it derives itself (Host from the URL, Content-Length from the body), and those a proxy
 * added on the way (sent by a client, they would be forged). Accept-Encoding becomes --compressed,
 * so the answer is decoded rather than printed compressed.
 */
const LEFT_OUT = new Set(['host', 'content-length', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'http2-settings', 'expect', 'accept-encoding', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip', 'via']);

/**
 * The request of a stored profile as a curl command that replays it: method, absolute URL,
 * headers, body as recorded. Every "[redacted]" becomes a shell variable named after where it
 * was (`TRELLIS_AUTHORIZATION`, `TRELLIS_PASSWORD`), for the user to set; everything else is
 * quoted (shell-word.ts). Null for a sub-request (its request is its parent's) or without data.
 */
export function curlCommand(profile: Profile): CurlCommand | null {
  const data = dataOf<RequestData>(profile, 'request');
  if (!data || data.subRequest) return null;
  const placeholders = new Map<string, string>();
  const parts = (text: string, nameBefore: (before: string) => string | null, stands: (name: string) => string) => withVariables(text, nameBefore, stands, placeholders);
  const notes: string[] = [];
  const url = absoluteProfileUrl(profile.url, data.protocol);
  const body = data.body;
  const hasBody = body.text !== null;
  const first = ['curl'];
  // Brackets are curl's URL globbing; in a query they are data (JSON:API's page[size]).
  if (/[[\]{}]/.test(url.replaceAll(REDACTED, ''))) first.push('--globoff');
  if (profile.method === 'HEAD') first.push('--head');
  else if (profile.method !== 'GET' || hasBody) first.push('-X', shellWord([profile.method]));
  first.push(shellWord(parts(url, queryName, (n) => `the query parameter ${n}`)));
  const lines = [first.join(' ')];
  for (const [name, value] of Object.entries(data.headers)) {
    const lower = name.toLowerCase();
    if (lower.startsWith(':') || value === undefined || value === null) continue;
    if (lower === 'accept-encoding') lines.push('--compressed');
    if (LEFT_OUT.has(lower)) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      // curl removes a header given as "Name:"; "Name;" sends it empty.
      const header = String(v) === '' ? [`${name};`] : [`${name}: `, ...parts(String(v), () => name, (n) => `the ${n} header`)];
      lines.push(`-H ${shellWord(header)}`);
    }
  }
  if (hasBody) lines.push(`--data-raw ${shellWord(parts(body.text!, fieldName, (n) => `the body field ${n}`))}`);
  if (body.note) notes.push(`The body (${body.note}${body.size > 0 ? `, ${body.size} bytes` : ''}) was not recorded: add it with --data-binary @file.`);
  else if (body.truncated) notes.push(`The body was cut at the profiler's limit: the command sends the ${Buffer.byteLength(body.text ?? '')} bytes recorded of ${body.size}.`);
  if (url.startsWith('https:')) notes.push("Against the development server's self-signed certificate, add --insecure (or --cacert with its certificate).");
  return {
    text: lines.join(' \\\n  '),
    placeholders: [...placeholders].map(([variable, stands]) => ({ variable, stands })),
    notes,
  };
}

/** Splits a value at each "[redacted]", naming the variable after what precedes it. */
function withVariables(text: string, nameBefore: (before: string) => string | null, stands: (name: string) => string, placeholders: Map<string, string>): WordPart[] {
  const parts: WordPart[] = [];
  let from = 0;
  for (let at = text.indexOf(REDACTED); at >= 0; at = text.indexOf(REDACTED, from)) {
    parts.push(text.slice(from, at));
    const name = nameBefore(text.slice(Math.max(0, at - 200), at));
    const variable = variableName(name);
    if (!placeholders.has(variable)) placeholders.set(variable, name === null ? 'a value the profiler redacted' : stands(name));
    parts.push({ variable });
    from = at + REDACTED.length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** `TRELLIS_` and the name in upper snake case: a portable shell variable name (POSIX XBD §3.235). */
function variableName(name: string | null): string {
  const word = (name ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
  return `TRELLIS_${word === '' ? 'SECRET' : word}`;
}

/** The query parameter (`?name=` or `&name=`) right before a value. */
function queryName(before: string): string | null {
  const m = /[?&]([^?&=#]+)=$/.exec(before);
  return m ? decoded(m[1]!) : null;
}

/** The JSON key (`"name": "`) or form pair (`name=`) right before a value. */
function fieldName(before: string): string | null {
  const json = /"((?:[^"\\]|\\.)*)"\s*:\s*"$/.exec(before);
  if (json) return json[1]!;
  const pair = /(?:^|[&\n])([^&=\n]+)=$/.exec(before);
  return pair ? decoded(pair[1]!) : null;
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}
