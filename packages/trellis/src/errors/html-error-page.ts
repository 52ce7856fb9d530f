import { html, raw, type SafeHtml } from '../html/html.ts';
import { exceptionCss } from './exception-css.ts';
import { exceptionView } from './exception-view.ts';
import type { ErrorView } from './error-view.ts';
import { pageSecurityHeaders } from '../html/page-security-headers.ts';

/** The production page's whole stylesheet. */
const PLAIN_CSS = 'body{font:16px/1.5 system-ui,sans-serif;margin:15vh auto;max-width:40em;padding:0 1em;color:#1f2328}h1{font-size:1.5em}';

/** CSP and friends for both pages: their stylesheets are their only inline content. */
export const ERROR_PAGE_HEADERS = pageSecurityHeaders([exceptionCss, PLAIN_CSS]);

/**
 * The HTML error page. In debug: title "<message> (<status> <reason>)", the message, the exception
 * chain with traces and the request's log. In production: the status and, for 4xx, the message.
 */
export function htmlErrorPage(view: ErrorView): string {
  const heading = `${view.status} ${view.title}`;
  let page: SafeHtml;
  if (view.debug) {
    page = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow">
<title>${view.message} (${heading})</title><style>${raw(exceptionCss)}</style></head>
<body class="trellis-exception"><header class="exception-header"><div class="status">${heading}</div><h1>${view.message}</h1></header>
${exceptionView(view.chain, view.logs)}</body></html>`;
  } else {
    page = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow"><title>${heading}</title>
<style>${raw(PLAIN_CSS)}</style></head>
<body><h1>${heading}</h1><p>${view.message}</p></body></html>`;
  }
  return page.toString();
}
