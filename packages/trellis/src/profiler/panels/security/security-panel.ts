import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import { formatMs } from '../../ui/format-duration.ts';
import { securityCollector } from './security-collector.ts';
import { html } from '../../../html/html.ts';
import type { SecurityData } from './security-collector.ts';
import { ellipsis } from '../../../logging/cut-string.ts';

const STAGES: Record<string, string> = { path: 'Path rule (firewall)', security: 'security', post_denormalize: 'securityPostDenormalize' };
const ms = formatMs;

/** Symfony's Security panel for Trellis: the user, the authenticators, the access decision log and the votes. */
export const securityPanel: ProfilerPanel = defineProfilerPanel<SecurityData>({
  id: 'security',
  label: 'Security',
    collect: (request) => securityCollector.collect(request),
badge(data, profile) {
    if (data.denied > 0) return { text: `${data.denied} denied`, level: 'error' };
    return data.user ? { text: ellipsis(data.user.identifier, 14) } : null;
  },
  render(data, profile, ctx) {
    if ((data.authenticators.length === 0 && data.decisions.length === 0 && data.otherVotes.length === 0)) {
      return html`<h2>Security</h2><p class="pf-empty">No authentication ran and no access was checked for this request.</p>`;
    }
    const user = data.user;
    return html`<h2>Security</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${user ? user.identifier : 'anonymous'}</div><div class="label">User</div></div>
<div class="pf-metric"><div class="value">${user ? 'yes' : 'no'}</div><div class="label">Authenticated</div></div>
<div class="pf-metric"><div class="value">${data.decisions.length}</div><div class="label">Access checks</div></div>
<div class="pf-metric"><div class="value">${data.denied}</div><div class="label">Denied</div></div></div>
${user ? html`<h3>Roles</h3><table class="pf-table pf-roles"><tbody><tr><th scope="row">Roles</th><td>${user.roles.join(', ') || '(none)'}</td></tr>
<tr><th scope="row">Inherited roles</th><td>${user.reachableRoles.filter((r) => !user.roles.includes(r)).join(', ') || '(none)'}</td></tr></tbody></table>` : ''}
<h3>Authenticators</h3>
${data.authenticators.length === 0 ? html`<p class="pf-empty">No credentials were presented: every authenticator passed the request by.</p>` : html`<table class="pf-table pf-authenticators"><thead><tr><th>Authenticator</th><th>Outcome</th><th>At</th></tr></thead><tbody>${data.authenticators.map(
      (a) => html`<tr class="${a.outcome}"><td class="mono">${a.name}</td><td>${a.outcome}${a.reason ? html`: <span class="pf-note">${a.reason}</span>` : ''}</td><td class="mono">${ms(a.atMs)}</td></tr>`,
    )}</tbody></table>`}
<h3>Access decision log${data.strategy ? html` <small class="pf-note">strategy: ${data.strategy}</small>` : ''}</h3>
${data.decisions.length === 0 ? html`<p class="pf-empty">No access rule was checked.</p>` : html`<table class="pf-table pf-decisions"><thead><tr><th>At</th><th>Stage</th><th>Rule</th><th>Result</th><th>Votes</th></tr></thead><tbody>${data.decisions.map(
      (d) => html`<tr class="${d.granted ? 'granted' : 'denied'}"><td class="mono">${ms(d.atMs)}</td><td>${STAGES[d.stage] ?? d.stage}${d.path ? html`<br><code>${d.path}</code>` : ''}</td>
<td><code>${d.attribute}</code>${d.expression ? html`<pre class="pf-sql">${d.expression}</pre>` : ''}</td>
<td>${d.granted ? 'ACCESS GRANTED' : 'ACCESS DENIED'}${d.message ? html`<div class="pf-note">${d.message}</div>` : ''}${d.stage === 'post_denormalize' && (d.object !== undefined || d.previous !== undefined) ? html`<details class="pf-objects"><summary>Objects</summary><div class="pf-note">New</div><pre class="pf-sql">${JSON.stringify(d.object ?? null, null, 2)}</pre><div class="pf-note">Previous</div><pre class="pf-sql">${JSON.stringify(d.previous ?? null, null, 2)}</pre></details>` : ''}</td>
<td>${d.votes.length === 0 ? html`<span class="pf-note">no voter asked</span>` : html`<ul class="pf-votes">${d.votes.map((v) => html`<li><code>${v.voter}</code> ${v.vote.toUpperCase()} <code>${v.attribute}</code>${v.subject ? html` on ${v.subject}` : ''}</li>`)}</ul>`}</td></tr>`,
    )}</tbody></table>`}
${data.otherVotes.length > 0 ? html`<h3>Other checks</h3><ul class="pf-votes">${data.otherVotes.map((v) => html`<li><code>${v.voter}</code> ${v.vote.toUpperCase()} <code>${v.attribute}</code>${v.subject ? html` on ${v.subject}` : ''}</li>`)}</ul>` : ''}`;
  },
});
