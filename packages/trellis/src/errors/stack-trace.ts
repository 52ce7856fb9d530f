import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

export interface StackFrame {
  readonly function: string;
  /** Path relative to the working directory, or the internal module name (node:…). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Node internals and dependencies: shown collapsed, no excerpt. */
  readonly vendor: boolean;
  /** A few source lines around `line`, the first numbered `excerptStart`. */
  readonly excerpt: readonly string[];
  readonly excerptStart: number;
}

const FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/;
const sourceCache = new Map<string, string[] | null>();

function sourceLines(path: string): string[] | null {
  if (!sourceCache.has(path)) {
    if (sourceCache.size > 200) sourceCache.clear();
    try {
      sourceCache.set(path, readFileSync(path, 'utf8').split('\n'));
    } catch {
      sourceCache.set(path, null);
    }
  }
  return sourceCache.get(path)!;
}

/**
 * Files a frame's excerpt may be read from: the modules Node runs. A frame naming anything else
 * (`/etc/passwd`, `.env`) did not come from V8, and its lines are not shown.
 */
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * The frames part of a V8 stack: what follows its header, `Name: message`. A message quotes what
 * a client sent (`Item not found for "/books/…"`), newlines included, so a line of it can read
 * like a frame (`    at x (/etc/passwd:2:1)`): taken for one, its file was read and shown in the
 * debug error page to anyone who could ask for it. A stack that does not hold the message (it
 * changed after the stack was taken) is read whole, and then only source files give excerpts.
 */
function framesText(stack: string, message: string): string {
  if (message === '') return stack;
  const at = stack.indexOf(message);
  return at < 0 ? stack : stack.slice(at + message.length);
}

/**
 * Parses a V8 stack into frames with source excerpts; `message` is the error's, so that a line of
 * it is never taken for a frame. Node runs our TypeScript by stripping types in place (whitespace
 * replaces them), so line and column numbers already point into the .ts source and no source map
 * is needed.
 */
export function parseStack(stack: string | undefined, message = '', context = 3): StackFrame[] {
  if (!stack) return [];
  const frames: StackFrame[] = [];
  for (const text of framesText(stack, message).split('\n')) {
    const m = FRAME.exec(text);
    if (!m) continue;
    const [, fn, location, line, column] = m as unknown as [string, string | undefined, string, string, string];
    let absolute: string | null = null;
    if (location.startsWith('file://')) absolute = fileURLToPath(location);
    else if (location.startsWith('/')) absolute = location;
    const vendor = absolute === null || absolute.includes('/node_modules/');
    const lineNo = Number(line);
    let excerpt: string[] = [];
    let excerptStart = 0;
    if (!vendor && absolute && SOURCE_FILE.test(absolute)) {
      const lines = sourceLines(absolute);
      if (lines) {
        excerptStart = Math.max(1, lineNo - context);
        excerpt = lines.slice(excerptStart - 1, lineNo + context);
      }
    }
    frames.push({
      function: fn ?? '(anonymous)',
      file: absolute ? relative(process.cwd(), absolute) || absolute : location,
      line: lineNo,
      column: Number(column),
      vendor,
      excerpt,
      excerptStart,
    });
  }
  return frames;
}
