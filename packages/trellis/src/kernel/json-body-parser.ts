import sjson from 'secure-json-parse';
import type { FastifyRequest } from 'fastify';
import { publish } from '../observe/channels.ts';
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

/**
 * Parses a JSON request body. Keys that could poison prototypes (`__proto__`, `constructor`) are
 * dropped. A syntax error names where it is, never what is there: V8's own message quotes a slice
 * of the input, which may be a password, and this message goes to logs and to the client.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw HttpError.of('empty_json_body');
  try {
    return sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch {
    const position = jsonErrorPosition(text);
    if (position >= text.length) throw HttpError.of('truncated_json');
    throw HttpError.of('malformed_json', lineAndColumn(text, position));
  }
}

/** The same, as a Fastify content-type parser (`parseAs: 'string'`). */
export function jsonBodyParser(request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void): void {
  publish('phase', () => ({ request, phase: 'parse', at: performance.now() }));
  let value: unknown;
  try {
    value = parseJsonBody(body as string);
  } catch (error) {
    done(error as Error, undefined);
    return;
  }
  done(null, value);
}
