import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { routeNotFound } from '../../kernel/routing-errors.ts';
import { isTheme, THEME_COOKIE } from './profiler-theme.ts';

const ONE_YEAR = 365 * 24 * 3600;

/**
 * Where a theme switch goes back to: the profiler page it was clicked on, which the link sends as
 * its Referer (`referrerpolicy="same-origin"` on the link; every other link of the profiler sends
 * none). Anything but a path under /_profiler of this very origin goes to the profiler's home:
 * the switch is never an open redirect.
 */
export function backTo(referer: unknown, origin: string): string {
  if (typeof referer !== 'string' || referer.length > 2048) return '/_profiler/';
  let url: URL;
  let own: string;
  try {
    url = new URL(referer);
    // Both normalised (`http://host:80` is `http://host`).
    own = new URL(origin).origin;
  } catch {
    return '/_profiler/';
  }
  if (url.origin !== own || !/^\/_profiler(\/|$)/.test(url.pathname) || url.pathname.startsWith('/_profiler/theme/')) return '/_profiler/';
  return url.pathname + url.search;
}

/**
 * `/_profiler/theme/<light|dark|auto>`: remembers the pick in a cookie and answers 303 back to the
 * page (RFC 9110 §15.4.4: the follow-up is a GET). A preference, not a change of state anyone
 * could abuse, so a plain link, no form; behind the gate like every profiler route.
 */
export function themeRoute(app: FastifyInstance, page: RouteShorthandOptions): void {
  app.get<{ Params: { theme: string } }>('/_profiler/theme/:theme', page, async (request, reply) => {
    const { theme } = request.params;
    if (!isTheme(theme)) throw routeNotFound(request);
    const cookie = `${THEME_COOKIE}=${theme}; Path=/_profiler; Max-Age=${theme === 'auto' ? 0 : ONE_YEAR}; SameSite=Lax; HttpOnly`;
    return reply.header('set-cookie', cookie).redirect(backTo(request.headers.referer, request.trellisOrigin), 303);
  });
}
