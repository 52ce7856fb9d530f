import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import { fromStore } from '../from-store.ts';
import type { ProfileStorage } from '../storage/profile-storage.ts';
import { isToken } from '../token.ts';
import type { ProfilerCsrf } from './profiler-csrf.ts';
import { readForm, returnPath } from './read-form.ts';

export interface PinRouteOptions {
  readonly storage: ProfileStorage;
  readonly csrf: ProfilerCsrf;
  /** Resolves once every profile queued so far is stored: a profile just recorded can be pinned. */
  readonly settled: () => Promise<void>;
}

/**
 * `POST /_profiler/<token>/pin` (`pinned=1` pins, `pinned=0` unpins; storage/profile-storage.ts
 * says what a pin keeps), then 303 See Other (RFC 9110 §15.4.4) back to the page the form was
 * on. Refused with a 403 without its CSRF token (profiler-csrf.ts), before anything is read from
 * the store; an unknown token is a 404. Behind the profiler's gate like every profiler route.
 */
export function pinRoute(app: FastifyInstance, page: RouteShorthandOptions, options: PinRouteOptions): void {
  const config = { ...page.config, deferBody: true };
  app.post<{ Params: { token: string } }>('/_profiler/:token/pin', { ...page, config }, async (request, reply) => {
    const { token } = request.params;
    const form = await readForm(request);
    if (!options.csrf.verify('pin', token, form._csrf)) throw HttpError.of('profiler_csrf_refused');
    if (form.pinned !== '1' && form.pinned !== '0') throw HttpError.of('bad_request', { detail: 'The "pinned" field must be 1 (pin) or 0 (unpin).' });
    await options.settled();
    if (!isToken(token) || !(await fromStore(() => options.storage.pin(token, form.pinned === '1')))) throw HttpError.of('profiler_token_not_found', { token });
    return reply.redirect(returnPath(form.return, `/_profiler/${token}`), 303);
  });
}
