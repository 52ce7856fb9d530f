import { html } from '../../../html/html.ts';
import { pageSecurityHeaders } from '../../../html/page-security-headers.ts';
import { COPY_SCRIPT_INTEGRITY } from '../../export/copy-script.ts';
import { LIVE_SCRIPT_INTEGRITY } from '../../live/live-script.ts';
import { profilerCss } from '../profiler-css.ts';
import { layout } from '../layout.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY'];

const LIVE_HEADERS = pageSecurityHeaders([profilerCss], [COPY_SCRIPT_INTEGRITY, LIVE_SCRIPT_INTEGRITY]);

/**
 * The live page's headers: the profiler's, with its own script (served by the profiler,
 * `/_profiler/live.js`) allowed by its hash like the copy script, and its event stream from this
 * origin only (CSP Level 3 `script-src`, `connect-src`); still no inline script and no handler
 * attribute.
 */
export const LIVE_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...LIVE_HEADERS,
  'content-security-policy': `${LIVE_HEADERS['content-security-policy']}; connect-src 'self'`,
  'cache-control': 'no-cache, private',
  'x-robots-tag': 'noindex',
});

/**
 * `/_profiler/live`: main requests as they finish, newest on top (live-script.ts fills the table
 * from `/_profiler/live/events`). The filter narrows what is shown, rows already there included;
 * Pause holds new rows back until Resume.
 */
export function livePage(): string {
  const sidebar = html`<form class="pf-search" id="live-filter" role="search">
<h3>Filter</h3>
<label for="live-method">Method</label><select name="method" id="live-method"><option value="">Any</option>${METHODS.map((m) => html`<option>${m}</option>`)}</select>
<label for="live-status">Status</label><input type="text" name="status" id="live-status" maxlength="3" placeholder="e.g. 404 or 5xx" autocomplete="off">
<label for="live-url">URL</label><input type="text" name="url" id="live-url" placeholder="part of the URL" autocomplete="off">
<button type="button" id="live-pause" aria-pressed="false">Pause</button>
</form>`;
  const main = html`<h2>Live <span class="pf-live-state" id="live-state">connecting…</span></h2>
<p class="pf-related">Requests appear here as they finish, newest first; each links to its profile. The profiler's own pages are not recorded, so they never appear.</p>
<table class="pf-table pf-live"><thead><tr><th>Status</th><th>Method</th><th>URL</th><th>Duration</th><th>Time</th><th>Token</th></tr></thead><tbody id="live-rows"></tbody></table>
<script src="/_profiler/live.js" integrity="${LIVE_SCRIPT_INTEGRITY}" defer></script>`;
  return layout({ title: 'Live – Profiler', sidebar, main });
}
