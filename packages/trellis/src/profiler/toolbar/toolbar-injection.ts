import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cspForToolbar } from './csp-for-toolbar.ts';
import { cspNonce } from './nonce.ts';
import { TOOLBAR_SCRIPT_PATH } from './toolbar-assets.ts';

/**
 * Why a response does not get the toolbar, or null when it does. Symfony's WebDebugToolbarListener
 * rules, plus the Fetch Metadata one: only a page a person navigated to, as it is sent.
 */
export function toolbarRefusal(request: FastifyRequest, reply: FastifyReply, payload: unknown): string | null {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return 'streamed body';
  // HEAD as GET (RFC 9110 §9.3.2): its Content-Length must be the one GET sends (§8.6), and it
  // is, since the toolbar is put in the body HEAD does not send.
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') return 'method';
  // RFC 9110 §15.4: a redirect's body is not what the browser shows.
  if (reply.statusCode >= 300 && reply.statusCode < 400) return 'redirect';
  const type = String(reply.getHeader('content-type') ?? '');
  if (!/^text\/html\s*(;|$)/i.test(type)) return 'not html';
  // RFC 6266 §4.2: an attachment is saved, not shown.
  if (/^\s*attachment\b/i.test(String(reply.getHeader('content-disposition') ?? ''))) return 'attachment';
  if (reply.getHeader('content-encoding') !== undefined) return 'encoded body';
  if (String(request.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest') return 'xhr';
  // Fetch Metadata (W3C): `fetch()` and XHR send `Sec-Fetch-Dest: empty`; a navigation sends document or iframe.
  const dest = request.headers['sec-fetch-dest'];
  if (typeof dest === 'string' && dest !== 'document' && dest !== 'iframe' && dest !== 'frame') return 'not a navigation';
  return null;
}

/** The markup put before `</body>`: a host element and the script that fills it. */
export function toolbarMarkup(token: string, nonce: string): string {
  // `token` is six hex characters (token.ts) and `nonce` base64url: nothing here needs escaping.
  // The nonce is only on the script (browsers hide it from the DOM there); the script hands it on.
  return `<div id="trellis-wdt" data-token="${token}"></div><script src="${TOOLBAR_SCRIPT_PATH}" nonce="${nonce}" async></script>\n`;
}

/** The HTML with the toolbar before its last `</body>`, or null when it has none. */
export function withToolbar(body: string, markup: string): string | null {
  // The usual spelling first; a copy of the page in lower case only for another.
  let at = body.lastIndexOf('</body>');
  if (at === -1) at = body.toLowerCase().lastIndexOf('</body>');
  return at === -1 ? null : body.slice(0, at) + markup + body.slice(at);
}

export interface ToolbarInjectionOptions {
  /** Whether this client may open the profiler: nobody else is shown a toolbar that links to it. */
  readonly mayOpen: (request: FastifyRequest) => boolean;
}

/**
 * Puts the web debug toolbar into the HTML pages of profiled main requests (debug error pages,
 * `/docs`, an app's own HTML routes). Registered after the recorder, so the reply already carries
 * its X-Debug-Token: a response without one (not profiled, the profiler's own pages) is untouched.
 */
export function toolbarInjection(app: FastifyInstance, options: ToolbarInjectionOptions): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const token = reply.getHeader('x-debug-token');
    if (typeof token !== 'string' || toolbarRefusal(request, reply, payload) !== null || !options.mayOpen(request)) return done(null, payload);
    const body = typeof payload === 'string' ? payload : (payload as Buffer).toString('utf8');
    const nonce = cspNonce();
    const injected = withToolbar(body, toolbarMarkup(token, nonce));
    if (injected === null) return done(null, payload);
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('content-security-policy', cspForToolbar(policy, nonce));
    // A length set by the handler described the page without the toolbar.
    reply.removeHeader('content-length');
    done(null, injected);
  });
}
