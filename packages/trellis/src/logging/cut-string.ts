/**
 * A string longer than a log record keeps (MAX_RECORD_CHARS), kept as its beginning and a note of
 * its length. A record lives with its request until the profiler hands the request on, and is
 * encoded whole on the request thread: an app logging the 900 KB body it received put the whole
 * body into every profile, and into the profiler's backlog.
 */
export const MAX_RECORD_CHARS = 4096;

const NOTE = /… \[\d{1,3}(?:,\d{3})* characters\]$/;

/**
 * `text`'s first `maxChars` characters, as a string of its own (`ownString`), and the note
 * "… [N characters]".
 */
export function cutString(text: string, maxChars = MAX_RECORD_CHARS): string {
  if (text.length <= maxChars) return text;
  return `${ownString(text.slice(0, maxChars))}… [${text.length.toLocaleString('en-US')} characters]`;
}

/**
 * A copy of `text` that owns its characters: V8 makes a slice of a long string a view into it,
 * which keeps the whole string alive as long as the slice. UTF-16 both ways keeps every code
 * unit, lone surrogates included.
 */
export function ownString(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/** Where the beginning of a string `cutString` cut ends (the note's start), or -1 for any other string. */
export function cutStringEnd(text: string): number {
  const note = NOTE.exec(text);
  return note === null ? -1 : note.index;
}

/**
 * `text` at most `maxChars` UTF-16 units long: cut, its last unit an ellipsis, where it is longer
 * (a message quoting what a client sent, a label in a narrow column). A cut never ends between the
 * two halves of a surrogate pair, which would leave a lone surrogate (U+FFFD once encoded).
 */
export function ellipsis(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 0) return '';
  let end = maxChars - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
