import { html } from '../../../html/html.ts';
import { keyValueTable } from '../../ui/panels/key-value-table.ts';
import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';

/**
 * Symfony's Configuration panel for Trellis: versions, environment, features, the resources and
 * their operations, and the process environment (secret-named variables and URL passwords
 * redacted). It describes the running process as it is now, not as it was when the request ran:
 * the same for every request, so it is not stored in each profile.
 */
export const configPanel: ProfilerPanel = defineProfilerPanel<null>({
  id: 'config',
  label: 'Configuration',
  render(_data, _profile, ctx) {
    const facts = ctx.app?.();
    if (!facts) return html`<h2>Configuration</h2><p class="pf-empty">No configuration is available here.</p>`;
    return html`<h2>Configuration</h2>
<p class="pf-note">The running process, as it is now.</p>
${keyValueTable('Versions', facts.versions)}
${keyValueTable('Environment', facts.environment)}
${keyValueTable('Features', facts.features)}
<h3>Resources</h3>
${facts.resources.length === 0 ? html`<p class="pf-empty">No resources are declared.</p>` : html`<table class="pf-table pf-resources"><thead><tr><th>Resource</th><th>Path</th><th>Operations</th></tr></thead><tbody>${facts.resources.map(
      (r) => html`<tr><td>${r.name}</td><td class="mono">${r.path}</td><td class="mono">${r.operations.join(', ')}</td></tr>`,
    )}</tbody></table>`}
${keyValueTable('Process environment', facts.env)}`;
  },
});
