import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import { readBody } from '../../kernel/read-body.ts';

/** The profiler's forms hold a token, a flag and a return path: a few hundred bytes at most. */
const FORM_LIMIT = 4096;
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The fields of a profiler form (HTML §4.10.21.8, application/x-www-form-urlencoded), read by the
 * route itself (`config.deferBody`): the app parses no form anywhere else, so no parser is added
 * to it for these. A field sent twice keeps its first value; no body is an empty form (refused
 * for its missing token, not for its type); another media type is a 415, a longer body a 413.
 */
export async function readForm(request: FastifyRequest): Promise<Record<string, string>> {
  const stream = request.body as Readable | undefined;
  if (stream === undefined || stream === null) return {};
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== FORM_TYPE) {
    stream.resume();
    throw HttpError.of('unsupported_media_type', { contentType: request.headers['content-type'] ?? '', supported: `"${FORM_TYPE}"` });
  }
  const text = await readBody(stream, { limit: FORM_LIMIT, contentLength: request.headers['content-length'], contentEncoding: request.headers['content-encoding'] });
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!(name in fields)) fields[name] = value;
  return fields;
}

/**
 * Where to go after a form: `wanted` when it is a profiler page of this origin, else `fallback`.
 * Never another origin (`//evil.example`, `/\evil.example`), nor a path outside the profiler.
 */
export function returnPath(wanted: string | undefined, fallback: string): string {
  if (wanted === undefined || wanted.length > 2000 || /[\\\x00-\x1f\x7f]/.test(wanted)) return fallback;
  if (!/^\/_profiler(?:[/?]|$)/.test(wanted)) return fallback;
  return new URL(wanted, 'http://profiler.invalid').origin === 'http://profiler.invalid' ? wanted : fallback;
}
