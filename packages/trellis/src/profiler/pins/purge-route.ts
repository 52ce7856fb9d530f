import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import { fromStore } from '../from-store.ts';
import type { ProfileStorage } from '../storage/profile-storage.ts';
import type { ProfilerCsrf } from './profiler-csrf.ts';
import { readForm, returnPath } from './read-form.ts';

/**
 * `POST /_profiler/purge`: deletes every profile not pinned, then 303 See Other back to the
 * listing. A 403 without its CSRF token (profiler-csrf.ts): a page of another site must not be
 * able to empty the developer's profiler. Gated like every profiler route.
 */
export function purgeRoute(app: FastifyInstance, page: RouteShorthandOptions, options: { readonly storage: ProfileStorage; readonly csrf: ProfilerCsrf; readonly settled: () => Promise<void> }): void {
  const config = { ...page.config, deferBody: true };
  app.post('/_profiler/purge', { ...page, config }, async (request, reply) => {
    const form = await readForm(request);
    if (!options.csrf.verify('purge', '', form._csrf)) throw HttpError.of('profiler_csrf_refused');
    // What was recorded before the click goes too, not only what was stored by then.
    await options.settled();
    await fromStore(() => options.storage.purge({ keepPinned: true }));
    return reply.redirect(returnPath(form.return, '/_profiler/search'), 303);
  });
}
