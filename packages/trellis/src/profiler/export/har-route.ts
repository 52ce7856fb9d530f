import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import { ownVersion } from '../app-facts.ts';
import type { Profile } from '../profile.ts';
import { harOf } from './har-document.ts';

/**
 * `GET /_profiler/<token>.har` (or `latest.har`): the profile as a HAR 1.2 file to import into a
 * browser's devtools (har-document.ts), an attachment named after the token. Behind the profiler's
 * gate like every profiler page (`page`); made from the stored, redacted profile only.
 */
export function harRoute(app: FastifyInstance, page: RouteShorthandOptions, load: (token: string) => Promise<Profile | null>): void {
  app.get<{ Params: { token: string } }>('/_profiler/:token.har', page, async (request, reply) => {
    const { token } = request.params;
    const profile = await load(token);
    if (!profile) throw HttpError.of('profiler_token_not_found', { token });
    // No registered media type for HAR; devtools export and import it as JSON.
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="trellis-${profile.token}.har"`)
      .send(JSON.stringify(harOf(profile, ownVersion()), null, 2));
  });
}
