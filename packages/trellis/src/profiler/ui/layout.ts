import { html, raw, type SafeHtml } from '../../html/html.ts';
import { pageSecurityHeaders } from '../../html/page-security-headers.ts';
import { profilerCss } from './profiler-css.ts';
import { COPY_SCRIPT_INTEGRITY } from '../export/copy-script.ts';

/** CSP and friends for every profiler page: its stylesheet is the only inline content; its one script a file, allowed by hash. */
export const PROFILER_PAGE_HEADERS = pageSecurityHeaders([profilerCss], [COPY_SCRIPT_INTEGRITY]);

/**
 * Light, dark or the system's: links to the theme route, which sends the reader back to this page
 * (the links alone send a same-origin Referer; theme/theme-route.ts). The stylesheet marks the
 * one in effect from the root's `data-theme`.
 */
const themeSwitch = html`<span class="pf-theme" role="group" aria-label="Theme">${['light', 'dark', 'auto'].map(
  (theme) => html`<a href="/_profiler/theme/${theme}" referrerpolicy="same-origin" data-theme="${theme}" title="${theme === 'auto' ? 'Follow the system' : `${theme[0]!.toUpperCase()}${theme.slice(1)} theme`}">${theme === 'light' ? '☀' : theme === 'dark' ? '☾' : 'A'}</a>`,
)}</span>`;

/** The profiler's page shell: top bar, a sidebar (menu and/or search form) and the main column. */
export function layout(page: { title: string; sidebar: SafeHtml; main: SafeHtml }): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${page.title}</title><style>${raw(profilerCss)}</style></head>
<body class="trellis-profiler">
<header class="pf-topbar"><a class="brand" href="/_profiler/">Trellis <span>Profiler</span></a>
<nav><a href="/_profiler/latest">Latest</a><a href="/_profiler/">Last 10</a><a href="/_profiler/search?limit=100">Last 100</a><a href="/_profiler/search?pinned=1&amp;limit=100">Pinned</a><a href="/_profiler/live">Live</a></nav>${themeSwitch}</header>
<div class="pf-layout"><aside class="pf-sidebar">${page.sidebar}</aside><main class="pf-main">${page.main}</main></div>
</body></html>`.toString();
}

/** Status badge class by status class (2xx…5xx). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `status-${Math.floor(status / 100)}xx` : 'status-unknown';
}
