import { ellipsis } from '../../../logging/cut-string.ts';
import { html } from '../../../html/html.ts';
import { errorCodes } from '../../../kernel/error-codes.ts';
import { layout } from '../layout.ts';
import { searchBar } from '../search-bar.ts';
import { searchParams } from '../search-params.ts';

/** The 404 page for a token no profile has, with the search form to look for another. */
export function tokenNotFoundPage(token: string): string {
  const message = errorCodes.profiler_token_not_found.message({ token });
  return layout({
    title: message,
    sidebar: searchBar(searchParams({})),
    main: html`<h2>${message}</h2><p class="pf-empty">The profile may have expired or been removed by retention. Search for it, or open the <a href="/_profiler/">latest profiles</a>.</p>`,
  });
}

/** A profile asked for with a panel the profiler does not have (a typo, an app panel not registered). */
export function panelNotFoundPage(token: string, panel: string, panels: readonly { readonly name: string; readonly label: string }[]): string {
  const message = errorCodes.profiler_panel_not_found.message({ token, panel: ellipsis(panel, 80), panels: panels.map((p) => p.name).join(', ') });
  return layout({
    title: message,
    sidebar: searchBar(searchParams({})),
    main: html`<h2>${message}</h2><p class="pf-empty">This profiler's panels: ${panels.map((p, i) => html`${i > 0 ? ', ' : ''}<a href="/_profiler/${token}?panel=${p.name}">${p.label}</a> (<code>${p.name}</code>)`)}. A panel of your own is registered with <code>createApp({ profiler: { panels } })</code>.</p>`,
  });
}
