/**
 * Every built-in panel, rendered from a profile whose every request-derived value is markup
 * (URL, headers, query, body, log record, query parameters, security events, response): the
 * markup is shown escaped, never as elements (issue 16: the XSS corpus against every panel).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProfile } from '../../src/profiler/build-profile.ts';
import { defaultCollectors } from '../../src/profiler/panels/default-collectors.ts';
import { HOSTILE_MARKUP, hostileSnapshot } from '../../src/profiler/data-collector.contract.ts';
import { DEFAULT_SECRET_KEYS } from '../../src/logging/redact-secrets.ts';
import { defaultPanels } from '../../src/profiler/panels/default-panels.ts';
import { escapeHtml } from '../../src/html/html.ts';
import { COPY_SCRIPT_INTEGRITY, COPY_SCRIPT_PATH } from '../../src/profiler/export/copy-script.ts';

test('every built-in panel shows markup from the request escaped', async () => {
  const profile = await buildProfile(hostileSnapshot(), defaultCollectors, { maxBodyBytes: 4096, redactKeys: DEFAULT_SECRET_KEYS });
  const escaped = escapeHtml('<script>alert(1)</script>');
  for (const panel of defaultPanels) {
    const rendered = panel.render(profile, { timeZone: 'UTC' }).toString();
    // The Request panel's copy button script (a file, allowed by its hash) is the one script tag a panel may have.
    const page = rendered.replace(`<script src="${COPY_SCRIPT_PATH}" integrity="${COPY_SCRIPT_INTEGRITY}" defer></script>`, '');
    assert.doesNotMatch(page, /<script|<img/i, `${panel.name} renders markup`);
    // The hostile value reached the panel (else this proves nothing), escaped.
    if (['request', 'logs', 'db', 'security', 'router', 'api', 'http_client', 'events', 'exception', 'cpu'].includes(panel.name)) assert.ok(page.includes(escaped) || page.includes(escapeHtml(JSON.stringify(HOSTILE_MARKUP).slice(1, -1))), `${panel.name} does not show the value at all`);
  }
});
