import { html, type SafeHtml } from '../../../html/html.ts';

function show(value: unknown): SafeHtml | string {
  if (value === null || value === undefined) return html`<span class="pf-note">null</span>`;
  if (typeof value === 'string') return value;
  return html`<code>${JSON.stringify(value)}</code>`;
}

/** A two-column table of names and values (headers, query, params), or a note when empty. */
export function keyValueTable(title: string, values: Readonly<Record<string, unknown>> | null | undefined): SafeHtml {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return html`<h3>${title}</h3><p class="pf-empty">No ${title.toLowerCase()}.</p>`;
  return html`<h3>${title}</h3><table class="pf-table"><tbody>${entries.map(
    ([k, v]) => html`<tr><th scope="row">${k}</th><td>${show(v)}</td></tr>`,
  )}</tbody></table>`;
}

/** A captured body: its text, or why there is none, and whether it was cut. */
export function bodyView(title: string, body: { text: string | null; size: number; truncated: boolean; note?: string } | undefined): SafeHtml {
  if (!body || (body.text === null && !body.note)) return html`<h3>${title}</h3><p class="pf-empty">No body.</p>`;
  // A body nobody read (a request refused before its body was parsed, a route reading its own
  // stream): its size is the one the client declared, if it did; nothing of it was seen.
  if (body.text === null && body.note === 'unread') {
    return html`<h3>${title}</h3><p class="pf-empty">Not recorded: the body was not read by the app (answered before it was read, or read by the route as a stream)${body.size > 0 ? html`; Content-Length ${body.size} bytes` : ''}.</p>`;
  }
  if (body.text === null) return html`<h3>${title}</h3><p class="pf-empty">${body.size} bytes, not shown (${body.note}).</p>`;
  return html`<h3>${title} <small class="pf-note">${body.size} bytes${body.truncated ? ', truncated' : ''}</small></h3><pre class="pf-body">${body.text}</pre>`;
}
