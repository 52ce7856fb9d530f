import { html, type SafeHtml } from '../../html/html.ts';
import { LIMITS, type SearchParams } from './search-params.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The search form (`/_profiler/search_bar` serves it alone), prefilled from the current query. */
export function searchBar(p: SearchParams): SafeHtml {
  const limit = p.limit === '' ? '10' : p.limit;
  const method = p.method.toUpperCase();
  return html`<form class="pf-search" id="search-form" action="/_profiler/search" method="get" role="search">
<h3>Search profiles</h3>
<label for="ip">IP</label><input type="text" name="ip" id="ip" value="${p.ip}" placeholder="e.g. 127.0.0.1">
<div class="row2"><div><label for="method">Method</label><select name="method" id="method"><option value="">Any</option>${METHODS.map(
    (m) => html`<option${m === method ? html` selected` : ''}>${m}</option>`,
  )}</select></div>
<div><label for="status_code">Status code</label><input type="text" name="status_code" id="status_code" maxlength="3" pattern="[1-5]([0-9][0-9]|[xX][xX])" placeholder="404 or 5xx" value="${p.status_code}"></div></div>
<label for="url">URL</label><input type="text" name="url" id="url" value="${p.url}" placeholder="part of the URL">
<label for="token">Token</label><input type="text" name="token" id="token" value="${p.token}" maxlength="6" placeholder="e.g. a1b2c3">
<label for="start">From</label><input type="datetime-local" name="start" id="start" value="${p.start}">
<label for="end">Until</label><input type="datetime-local" name="end" id="end" value="${p.end}">
<label class="pf-check"><input type="checkbox" name="pinned" value="1"${p.pinned === '1' ? html` checked` : ''}> Pinned only</label>
<label for="limit">Results</label><select name="limit" id="limit">${LIMITS.map(
    (n) => html`<option${String(n) === limit ? html` selected` : ''}>${n}</option>`,
  )}</select>
<button type="submit">Search</button>
</form>`;
}
