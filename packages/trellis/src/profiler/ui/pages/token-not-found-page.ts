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
