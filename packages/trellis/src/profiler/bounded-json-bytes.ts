/**
 * The beginning of `JSON.stringify(value, null, 2)` as UTF-8 bytes: as much of it as fits in
 * `maxBytes`, cut at a character, built without building the rest, and written straight into a
 * buffer of its own. A profile keeps the first PROFILER_MAX_BODY bytes of a large body
 * (large-body.ts): encoding a 900 KB upload whole to keep 64 KB of it cost the request thread a
 * megabyte of garbage per request, and even the 64 KB, built as strings, did harm. Every string of
 * 16 KB or more made per upload on the request thread (the JSON of the cut, its copy) kept the
 * young generation growing: under 900 KB uploads from 100 connections the bookshop's mean RSS was
 * 431-453 MB with the profiler on, against 315 MB with the cut taken out alone (297 MB with the
 * profiler off). Bytes outside the JS heap, handed to the profiler thread by transfer, cost the
 * request thread's heap nothing.
 *
 * Values are parsed JSON (no toJSON, no cycles) nested no deeper than redaction leaves them.
 */

/** What JSON.stringify escapes in a string (ECMA-262 QuoteJSONString): quote, backslash, controls, lone surrogates. */
const ESCAPED = /["\\\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ESCAPED_ALL = new RegExp(ESCAPED.source, 'g');
/** A character class only, so scanned fast: without a match there is nothing to escape (a pair is a surrogate too). */
const MAYBE_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOf(char: string): string {
  return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A fixed buffer filled with whole UTF-8 characters; `push` says whether there is room for more. */
class ByteSink {
  readonly bytes: Buffer;
  length = 0;
  #full = false;

  constructor(maxBytes: number) {
    // Its own memory (not the shared pool): the profiler thread is handed it whole.
    this.bytes = Buffer.allocUnsafeSlow(maxBytes);
  }

  get room(): number {
    return this.bytes.length - this.length;
  }

  /** Writes what fits of `part`, whole characters only (Buffer#write never splits one); false once full. */
  push(part: string): boolean {
    if (this.#full) return false;
    const room = this.room;
    // A UTF-16 unit is at most 3 bytes of UTF-8: such a part surely fits, no need to measure it.
    if (part.length * 3 <= room) {
      this.length += this.bytes.write(part, this.length, 'utf8');
      return true;
    }
    const needed = Buffer.byteLength(part, 'utf8');
    this.length += this.bytes.write(part, this.length, room, 'utf8');
    if (needed <= room) return true;
    this.#full = true;
    return false;
  }
}

/** Writes `text` as a JSON string; false once the sink is full (a cut string has no closing quote). */
function writeString(sink: ByteSink, text: string): boolean {
  // Every character is at least one byte: no more of a long string than the room can be written.
  // A pair the slice cuts in two ends it with a lone surrogate, escaped below where the whole has
  // the character: never written, for the opening quote takes one byte of the room and the units
  // before that half take at least one byte each.
  const room = sink.room;
  const head = text.length > room ? text.slice(0, room) : text;
  if (!sink.push('"')) return false;
  if (!MAYBE_ESCAPED.test(head) || !ESCAPED.test(head)) {
    if (!sink.push(head)) return false;
  } else {
    // The runs between escapes go as they are (slices of the text, not copies of it).
    let from = 0;
    ESCAPED_ALL.lastIndex = 0;
    for (let m = ESCAPED_ALL.exec(head); m !== null; m = ESCAPED_ALL.exec(head)) {
      if (!sink.push(head.slice(from, m.index)) || !sink.push(escapeOf(m[0]))) return false;
      from = m.index + m[0].length;
    }
    if (!sink.push(head.slice(from))) return false;
  }
  return head.length === text.length && sink.push('"');
}

export function boundedJsonBytes(value: unknown, maxBytes: number): Buffer {
  const sink = new ByteSink(maxBytes);

  // Returns false once the sink is full: every caller stops there.
  const write = (v: unknown, indent: string): boolean => {
    if (typeof v === 'string') return writeString(sink, v);
    if (v === null || typeof v !== 'object') return sink.push(JSON.stringify(v) ?? 'null');
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return sink.push('[]');
      if (!sink.push('[')) return false;
      for (let i = 0; i < v.length; i++) {
        if (!sink.push(`${i > 0 ? ',' : ''}\n${inner}`)) return false;
        const item = v[i];
        if (!write(item === undefined || typeof item === 'function' ? null : item, inner)) return false;
      }
      return sink.push(`\n${indent}]`);
    }
    let first = true;
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function') continue;
      if (!sink.push(`${first ? '{' : ','}\n${inner}`) || !writeString(sink, key) || !sink.push(': ')) return false;
      first = false;
      if (!write(item, inner)) return false;
    }
    return sink.push(first ? '{}' : `\n${indent}}`);
  };

  write(value, '');
  return sink.bytes.subarray(0, sink.length);
}

/** The longest beginning of `text` that fits `maxBytes` of UTF-8, whole characters, in a buffer of its own. */
export function utf8Head(text: string, maxBytes: number): Buffer {
  const sink = new ByteSink(maxBytes);
  sink.push(text.length > maxBytes ? text.slice(0, maxBytes) : text);
  return sink.bytes.subarray(0, sink.length);
}
