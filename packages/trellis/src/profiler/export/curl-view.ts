import { html, type SafeHtml } from '../../html/html.ts';
import type { Profile } from '../profile.ts';
import { COPY_SCRIPT_INTEGRITY, COPY_SCRIPT_PATH } from './copy-script.ts';
import { curlCommand } from './curl-command.ts';

/**
 * The Request panel's "Copy as curl": the command (curl-command.ts) as selectable text, the
 * variables to set for what was redacted, and a copy button that only the served script shows.
 */
export function curlView(profile: Profile): SafeHtml {
  const curl = curlCommand(profile);
  if (!curl) return html``;
  return html`<h3>Replay with curl</h3>
${curl.placeholders.length > 0
  ? html`<p class="pf-note">Values the profiler redacted are shell variables: set each before running the command (<code>export ${curl.placeholders[0]!.variable}='…'</code>; in the URL, percent-encoded).</p>
<ul class="pf-placeholders">${curl.placeholders.map((p) => html`<li><code>${p.variable}</code>: ${p.stands}</li>`)}</ul>`
  : ''}
${curl.notes.map((note) => html`<p class="pf-note">${note}</p>`)}
<pre class="pf-body pf-curl" id="pf-curl">${curl.text}</pre>
<p><button type="button" class="pf-copy" data-copy="pf-curl" hidden>Copy as curl</button></p>
<script src="${COPY_SCRIPT_PATH}" integrity="${COPY_SCRIPT_INTEGRITY}" defer></script>`;
}
