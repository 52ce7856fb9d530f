import type { FastifyReply, FastifyRequest } from 'fastify';
import { themeOf, withTheme } from './theme/profiler-theme.ts';

/** Neither cached by shared caches nor indexed, as Symfony's profiler answers. */
export const NOT_CACHED = { 'cache-control': 'no-cache, private', 'x-robots-tag': 'noindex' } as const;

type OnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => void;

/**
 * The onSend hook of a profiler route: its page headers (CSP, no framing, no referrer), not
 * cached, and the theme its reader picked (theme/profiler-theme.ts). A client the gate refused
 * gets the app's 404 as it is, with nothing of the profiler's on it: told apart from the 404 of
 * a path that does not exist, it would say where the profiler is. An error page (a token not
 * found, a bad search) keeps the policy it was rendered with, which allows its own styles.
 */
export function pageHeadersHook(headers: Readonly<Record<string, string>>, mayOpen: (request: FastifyRequest) => boolean): OnSend {
  const all = { ...headers, ...NOT_CACHED };
  return (request, reply, payload, done) => {
    if (!mayOpen(request)) return done(null, payload);
    if (reply.statusCode >= 400 && reply.hasHeader('content-security-policy')) reply.headers(NOT_CACHED);
    else reply.headers(all);
    done(null, typeof payload === 'string' ? withTheme(payload, themeOf(request)) : payload);
  };
}
