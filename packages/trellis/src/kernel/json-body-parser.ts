import sjson from 'secure-json-parse';
import { HttpError } from './http-error.ts';
import { jsonErrorPosition } from './json-error-position.ts';

/** Line and column (1-based) of a character offset. */
function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}

/** How deep a JSON body may nest by default (JSON_MAX_DEPTH). */
export const DEFAULT_JSON_MAX_DEPTH = 64;

/** How many members one object of a JSON body may have by default (JSON_MAX_MEMBERS). */
export const DEFAULT_JSON_MAX_MEMBERS = 1000;

/**
 * Which limit a JSON text breaks, if any: nesting arrays and objects deeper than `maxDepth`, or an
 * object with more than `maxMembers` members. One pass over the text, before anything parses or
 * walks it, so no later recursion (merge-patch, denormalisation, redaction) meets a depth it was
 * not built for, and no later copy or check (decoding, validation, one violation per unknown
 * member) a width: 70,000 members in a 1 MB body took 270 ms of the request thread to refuse
 * member by member. Brackets and commas inside strings do not count.
 *
 * The text is read character by character, except that a string longer than STRETCH is skipped
 * with `indexOf` to its next quote, which is native and scans many characters at a time: most of
 * a large body is string contents, read one by one before (a third of the request thread's time
 * under 900 KB uploads, 6 ms a body; now 0.04 ms). Short strings and escape-dense text are read
 * as before, at the same speed: an `indexOf` per short string or per escaped quote cost more.
 */
export function jsonLimitBroken(text: string, maxDepth: number, maxMembers = Number.POSITIVE_INFINITY): 'depth' | 'members' | null {
  // Nesting n deep takes at least n opening brackets; n members at least n - 1 commas.
  if (text.length <= maxDepth && text.length < maxMembers) return null;
  let depth = 0;
  let inString = false;
  /** Where reading character by character began in the current string. */
  let from = 0;
  /** Per open container, by depth: whether it is an object, and the commas met in it. */
  const isObject: boolean[] = [];
  const commas: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: the next character is escaped
      else if (c === 34) inString = false;
      else if (i - from > STRETCH) {
        const quote = text.indexOf('"', i);
        // Unterminated: nothing after it nests, and the parser says where the text ends.
        if (quote < 0) return null;
        i = quote;
        if (isEscaped(text, quote)) from = quote;
        else inString = false;
      }
    } else if (c === 34) {
      inString = true;
      from = i;
    } else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return 'depth';
      isObject[depth] = c === 123;
      commas[depth] = 0;
    } else if (c === 125 || c === 93) depth--;
    // n commas in an object separate n + 1 members.
    else if (c === 44 && depth > 0 && isObject[depth] === true && ++commas[depth]! >= maxMembers) return 'members';
  }
  return null;
}

/** Characters of a string read one by one before the rest is skipped to its next quote. */
const STRETCH = 16;

/**
 * Whether the quote at `quote`, inside a string, is escaped: an odd run of backslashes before it
 * (RFC 8259 §7). The run never reaches back past the string's opening quote, and each run is
 * looked at once per quote after it, so the scan stays linear.
 */
function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Parses a JSON request body. Keys that could poison prototypes (`__proto__`, `constructor`) are
 * dropped. A syntax error names where it is, never what is there: V8's own message quotes a slice
 * of the input, which may be a password, and this message goes to logs and to the client.
 */
export function parseJsonBody(text: string, maxDepth = DEFAULT_JSON_MAX_DEPTH, maxMembers = DEFAULT_JSON_MAX_MEMBERS): unknown {
  if (text.trim() === '') throw HttpError.of('empty_json_body');
  const broken = jsonLimitBroken(text, maxDepth, maxMembers);
  if (broken === 'depth') throw HttpError.of('json_too_deep', { max: maxDepth });
  if (broken === 'members') throw HttpError.of('json_too_many_members', { max: maxMembers });
  try {
    return sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch {
    const position = jsonErrorPosition(text);
    if (position >= text.length) throw HttpError.of('truncated_json');
    throw HttpError.of('malformed_json', lineAndColumn(text, position));
  }
}
