import { html, type SafeHtml } from '../../html/html.ts';
import { requestPath } from '../../kernel/routed-path.ts';
import type { RouterData } from '../panels/router/router-collector.ts';
import type { TimeData } from '../panels/time/time-collector.ts';
import type { Profile } from '../profile.ts';
import { formatMb, formatMs } from '../ui/format-duration.ts';
import { statusClass } from '../ui/layout.ts';
import { dataOf, type Panel } from '../ui/panels/panel.ts';

/** Panels the toolbar's fixed items already speak for (status, time, memory) or that say little at a glance. */
const NOT_ON_TOOLBAR = new Set(['request', 'response', 'time', 'events', 'config']);

/**
 * The web debug toolbar of one profile (`/_wdt/<token>`), as Symfony's: the status and route,
 * time and memory, then every panel whose menu badge has something to say (queries, user,
 * log errors, exceptions, outgoing calls…), each a link to its panel. The AJAX item is filled in
 * the page by the toolbar's script. Every value goes through the `html` template.
 */
export function toolbarFragment(profile: Profile, panels: readonly Panel[]): SafeHtml {
  const href = (panel: string) => `/_profiler/${profile.token}?panel=${panel}`;
  const router = dataOf<RouterData>(profile, 'router');
  const time = dataOf<TimeData>(profile, 'time');
  const path = requestPath(profile.url);
  const route = router?.route ?? null;
  const items = panels
    .filter((p) => !NOT_ON_TOOLBAR.has(p.name))
    .map((p) => ({ panel: p, badge: safeBadge(p, profile) }))
    .filter((entry) => entry.badge !== null)
    .map(
      ({ panel, badge }) =>
        html`<a class="wdt-item ${badge!.level ?? ''}" href="${href(panel.name)}" title="${panel.label}" data-panel="${panel.name}"><span class="wdt-label">${panel.label}</span><span class="wdt-value">${badge!.text}</span></a>`,
    );
  return html`<div class="wdt-bar" data-token="${profile.token}" role="region" aria-label="Trellis debug toolbar">
<a class="wdt-item wdt-status ${statusClass(profile.statusCode)}" href="${href('request')}" title="${route ? `Route ${route}` : 'No route matched'}" data-panel="request"><span class="wdt-value">${profile.statusCode}</span><span class="wdt-label">${profile.method} ${route ?? path}</span></a>
<a class="wdt-item" href="${href('time')}" title="Total time" data-panel="time"><span class="wdt-value">${formatMs(profile.durationMs)}</span></a>
${time?.memory ? html`<a class="wdt-item" href="${href('time')}" title="Heap used at the end of the request" data-panel="memory"><span class="wdt-value">${formatMb(time.memory.heapEnd)}</span></a>` : ''}
${items}
<div class="wdt-item wdt-ajax" hidden><button type="button" class="wdt-ajax-toggle" aria-expanded="false" title="Requests this page made"><span class="wdt-label">AJAX</span><span class="wdt-value wdt-ajax-count">0</span></button>
<div class="wdt-ajax-panel" hidden><table><thead><tr><th>Profile</th><th>Status</th><th>Method</th><th>URL</th><th>Time</th></tr></thead><tbody></tbody></table></div></div>
<a class="wdt-item wdt-token" href="/_profiler/${profile.token}" title="Open the profile">${profile.token}</a>
<button type="button" class="wdt-hide" title="Hide the toolbar" aria-label="Hide the toolbar">×</button>
</div><button type="button" class="wdt-show" hidden title="Show the Trellis toolbar" aria-label="Show the Trellis toolbar">T</button>`;
}

/** A panel's badge, or null when it has none or fails on an odd profile (the toolbar still shows). */
function safeBadge(panel: Panel, profile: Profile): ReturnType<Panel['badge']> {
  try {
    return panel.badge(profile);
  } catch {
    return null;
  }
}
