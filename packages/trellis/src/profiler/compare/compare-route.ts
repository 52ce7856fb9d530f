import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import type { Profile } from '../profile.ts';
import { isToken } from '../token.ts';
import { comparePage } from '../ui/pages/compare-page.ts';
import { compareProfiles } from './compare-profiles.ts';

/**
 * `GET /_profiler/<a>/compare/<b>` (and `.json`): two stored profiles side by side
 * (compare-profiles.ts); `GET /_profiler/<a>/compare?with=<b>` is where the profile page's form
 * sends, redirected there. Behind the profiler's gate like every profiler page (`page`).
 */
export function compareRoute(app: FastifyInstance, page: RouteShorthandOptions, load: (token: string) => Promise<Profile | null>, timeZone: string): void {
  app.get<{ Params: { a: string; b: string } }>('/_profiler/:a/compare/:b', page, async (request, reply) => {
    const asJson = request.params.b.endsWith('.json');
    const b = asJson ? request.params.b.slice(0, -'.json'.length) : request.params.b;
    const [left, right] = await Promise.all([load(request.params.a), load(b)]);
    if (!left) throw HttpError.of('profiler_token_not_found', { token: request.params.a });
    if (!right) throw HttpError.of('profiler_token_not_found', { token: b });
    const comparison = compareProfiles(left, right);
    if (asJson) return comparison;
    return reply.type('text/html; charset=utf-8').send(comparePage(comparison, timeZone));
  });

  app.get<{ Params: { a: string }; Querystring: { with?: unknown } }>('/_profiler/:a/compare', page, async (request, reply) => {
    const other = typeof request.query.with === 'string' ? request.query.with.trim().toLowerCase() : '';
    // Only a token goes into the Location: never a path or a URL a client made up.
    if (other !== 'latest' && !isToken(other)) throw HttpError.of('profiler_token_not_found', { token: other.slice(0, 40) });
    if (request.params.a !== 'latest' && !isToken(request.params.a)) throw HttpError.of('profiler_token_not_found', { token: request.params.a });
    return reply.redirect(`/_profiler/${request.params.a}/compare/${other}`, 302);
  });
}
