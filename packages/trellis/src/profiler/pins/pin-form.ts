import { html, type SafeHtml } from '../../html/html.ts';
import type { ProfilerCsrf } from './profiler-csrf.ts';

/**
 * The Pin / Unpin button of a profile (profile page, search rows): a POST form carrying its CSRF
 * token (pin-route.ts), and the page to come back to.
 */
export function pinForm(csrf: ProfilerCsrf, token: string, pinned: boolean, back: string): SafeHtml {
  return html`<form class="pf-pin" method="post" action="/_profiler/${token}/pin"><input type="hidden" name="_csrf" value="${csrf.token('pin', token)}"><input type="hidden" name="pinned" value="${pinned ? '0' : '1'}"><input type="hidden" name="return" value="${back}"><button type="submit" class="${pinned ? 'pinned' : ''}" aria-pressed="${pinned ? 'true' : 'false'}" title="${pinned ? 'Pinned: kept whatever the retention. Click to unpin.' : 'Keep this profile whatever the retention'}">${pinned ? 'Unpin' : 'Pin'}</button></form>`;
}

/** The Purge button of the search page: deletes every profile not pinned (purge-route.ts). */
export function purgeForm(csrf: ProfilerCsrf, back: string): SafeHtml {
  return html`<form class="pf-purge" method="post" action="/_profiler/purge"><input type="hidden" name="_csrf" value="${csrf.token('purge')}"><input type="hidden" name="return" value="${back}"><button type="submit">Purge unpinned profiles</button></form>`;
}
