import { html, type SafeHtml } from '../../../html/html.ts';
import type { Profile } from '../../profile.ts';
import { formatTime } from '../format-time.ts';
import { layout, statusClass } from '../layout.ts';
import type { Panel, PanelContext } from '../panels/panel.ts';
import { searchBar } from '../search-bar.ts';
import { searchParams } from '../search-params.ts';
import { compareForm } from './compare-page.ts';

/** The panel a page opens with: the one asked for, else the exception of a failed request, else the first. */
export function selectPanel(profile: Profile, panels: readonly Panel[], asked: string | undefined): Panel {
  const chosen = panels.find((p) => p.name === asked);
  if (chosen) return chosen;
  const exception = panels.find((p) => p.name === 'exception');
  if (exception && profile.statusCode >= 400 && exception.badge(profile) !== null) return exception;
  return panels[0]!;
}

/**
 * The profile page: the request's facts (with its Pin button, when the profiler has pins), links
 * to its parent and children, the menu and one panel.
 */
export function profilePage(profile: Profile, panels: readonly Panel[], asked: string | undefined, pin: SafeHtml | undefined, ctx: PanelContext): string {
  const panel = selectPanel(profile, panels, asked);
  const menu = html`<nav aria-label="Panels"><ul class="pf-menu">${panels.map((p) => {
    const badge = p.badge(profile);
    return html`<li><a href="/_profiler/${profile.token}?panel=${p.name}" class="${p === panel ? 'selected' : ''}" data-panel="${p.name}"><span>${p.label}</span>${
      badge ? html`<span class="pf-badge ${badge.level ?? ''}">${badge.text}</span>` : ''
    }</a></li>`;
  })}</ul></nav>`;
  const related = html`${profile.parent ? html`<div class="pf-related">Forwarded from <a href="/_profiler/${profile.parent}">${profile.parent}</a> (the request this sub-request was made for)</div>` : ''}${profile.children.map(
    (child) => html`<div class="pf-related">Forwarded to <a href="/_profiler/${child}">${child}</a> (sub-request)</div>`,
  )}`;
  const main = html`<section class="pf-summary">
<span class="pf-status ${statusClass(profile.statusCode)}" title="Status">${profile.statusCode}</span>
<div><h1><span class="method">${profile.method}</span>${profile.url}</h1>
<ul class="pf-meta"><li>IP <strong>${profile.ip}</strong></li><li>Token <strong class="token">${profile.token}</strong></li>
<li>Time <strong>${formatTime(profile.time, ctx.timeZone)}</strong></li><li>Duration <strong>${profile.durationMs.toFixed(2)} ms</strong></li>
<li><a href="/_profiler/${profile.token}.json">JSON</a></li><li><a href="/_profiler/${profile.token}.har" download>HAR</a></li>${pin ? html`<li>${pin}</li>` : ''}<li>${compareForm(profile.token)}</li></ul>${related}</div></section>
<section class="pf-panel" id="panel-${panel.name}">${panel.render(profile, ctx)}</section>`;
  return layout({
    title: `${profile.method} ${profile.url} (${profile.statusCode}) – Profiler ${profile.token}`,
    sidebar: html`${menu}<hr>${searchBar(searchParams({}))}`,
    main,
  });
}
