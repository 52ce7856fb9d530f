import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import { noneMatch } from '../../resources/conditional.ts';
import type { Profile } from '../profile.ts';
import type { Panel } from '../ui/panels/panel.ts';
import { TOOLBAR_SCRIPT_PATH, TOOLBAR_STYLE_PATH, toolbarAssets, type ToolbarAsset } from './toolbar-assets.ts';
import { toolbarFragment } from './toolbar-fragment.ts';

/**
 * The toolbar's routes, behind the profiler's gate like every profiler route (`page` carries it):
 * `/_wdt/<token>` (the fragment the script puts in the page, as Symfony's `_wdt` route) and the
 * script and stylesheet. Static routes win over `:token` in the router.
 */
export function toolbarRoute(app: FastifyInstance, page: RouteShorthandOptions, load: (token: string) => Promise<Profile | null>, panels: readonly Panel[]): void {
  // RFC 9110 §13.1.2: the files change only with the package; a browser revalidates them.
  const send = (asset: () => ToolbarAsset) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { body, type, etag } = asset();
    reply.header('etag', etag);
    if (!noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type(type).send(body);
  };
  app.get(TOOLBAR_SCRIPT_PATH, page, send(() => toolbarAssets().script));
  app.get(TOOLBAR_STYLE_PATH, page, send(() => toolbarAssets().style));

  app.get<{ Params: { token: string } }>('/_wdt/:token', page, async (request, reply) => {
    const { token } = request.params;
    // `latest` would name whatever came last, not the page: the toolbar is always of one token.
    const profile = token === 'latest' ? null : await load(token);
    if (!profile) throw HttpError.of('profiler_token_not_found', { token });
    return reply.type('text/html; charset=utf-8').send(toolbarFragment(profile, panels).toString());
  });
}
