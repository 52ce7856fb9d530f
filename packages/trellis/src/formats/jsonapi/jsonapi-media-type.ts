import { HttpError } from '../../kernel/http-error.ts';

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';
/** A cheap first test, without lower-casing a copy of the header on every request. */
const MENTIONS_JSONAPI = /application\/vnd\.api\+json/i;

interface MediaTypeElement {
  /** `type/subtype`, lower-cased. */
  readonly mediaType: string;
  /** Parameters in order, names lower-cased, quoted values unquoted (RFC 9110 §5.6.6). */
  readonly parameters: readonly (readonly [string, string])[];
}

/** Splits on `separator` outside quoted strings: a `profile="a,b"` is one value, not two elements. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function element(text: string): MediaTypeElement {
  const [type = '', ...params] = splitOutsideQuotes(text, ';').map((s) => s.trim());
  const parameters = params
    .filter((p) => p !== '')
    .map((p): [string, string] => {
      const eq = p.indexOf('=');
      const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
      let value = eq < 0 ? '' : p.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
      return [name, value];
    });
  return { mediaType: type.toLowerCase(), parameters };
}

/**
 * Why one JSON:API media type element is unusable (JSON:API 1.1, Content Negotiation): a
 * parameter other than `ext` and `profile`, or an `ext` naming extensions, none of which this
 * server supports. `q` is the Accept weight, not a media type parameter (RFC 9110 §12.5.1).
 */
function problem(e: MediaTypeElement, accept: boolean): { parameter: string } | { ext: string } | null {
  let ext: string | null = null;
  for (const [name, value] of e.parameters) {
    if (accept && name === 'q') break;
    if (name === 'ext') ext = value;
    else if (name !== 'profile') return { parameter: name };
  }
  return ext !== null && ext.trim() !== '' ? { ext } : null;
}

/**
 * JSON:API 1.1, Content Negotiation (server responsibilities): a request whose Content-Type is
 * the JSON:API media type with a parameter other than `ext`/`profile`, or an unsupported `ext`,
 * is a 415. Null for any other Content-Type and for a usable one.
 */
export function jsonApiContentTypeRefusal(contentType: string | undefined): HttpError | null {
  if (contentType === undefined || !MENTIONS_JSONAPI.test(contentType)) return null;
  const e = element(contentType);
  if (e.mediaType !== JSONAPI_MEDIA_TYPE) return null;
  const p = problem(e, false);
  if (p === null) return null;
  return 'parameter' in p ? HttpError.of('jsonapi_content_type_parameter', { contentType, parameter: p.parameter }) : HttpError.of('jsonapi_content_type_extension', { contentType, ext: p.ext });
}

/**
 * JSON:API 1.1, Content Negotiation: when Accept names the JSON:API media type and every
 * instance of it carries a parameter other than `ext`/`profile` (or an unsupported `ext`), the
 * answer is a 406, whatever else Accept lists. Null when Accept has a usable instance or none.
 */
export function jsonApiAcceptRefusal(accept: string | undefined): HttpError | null {
  if (accept === undefined || !MENTIONS_JSONAPI.test(accept)) return null;
  const instances = splitOutsideQuotes(accept, ',').map(element).filter((e) => e.mediaType === JSONAPI_MEDIA_TYPE);
  if (instances.length === 0) return null;
  const problems = instances.map((e) => problem(e, true));
  if (problems.some((p) => p === null)) return null;
  const parameter = problems.find((p) => p !== null && 'parameter' in p) as { parameter: string } | undefined;
  if (parameter) return HttpError.of('jsonapi_accept_parameter', { accept, parameter: parameter.parameter });
  return HttpError.of('jsonapi_accept_extension', { accept, ext: (problems[0] as { ext: string }).ext });
}
