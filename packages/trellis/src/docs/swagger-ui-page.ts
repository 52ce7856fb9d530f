import { html, safeHref, type SafeHtml } from '../html/html.ts';

export interface SwaggerUiPageOptions {
  readonly name: string;
  /** Where the OpenAPI document is, e.g. `/docs.json`. */
  readonly specUrl: string;
  /** The login operation's path, for authorizing its token automatically; null when none. */
  readonly loginPath: string | null;
  /** `/docs/assets/<file>?v=<version>`. */
  readonly asset: (file: string) => string;
}

/**
 * The Swagger UI page (`/docs`, and `/` for browsers): Swagger UI's own files served by the app
 * (no CDN), started by trellis-docs.js. No inline script: settings travel in data attributes.
 */
export function swaggerUiPage(options: SwaggerUiPageOptions): SafeHtml {
  const { asset } = options;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.name} – API documentation</title>
<link rel="icon" type="image/png" href="${safeHref(asset('favicon-32x32.png'))}">
<link rel="stylesheet" href="${safeHref(asset('swagger-ui.css'))}">
<link rel="stylesheet" href="${safeHref(asset('trellis-docs.css'))}">
</head>
<body>
<header class="trellis-docs-bar"><span>${options.name}</span><a href="${safeHref(options.specUrl)}">OpenAPI (JSON)</a><a href="/docs.yaml">YAML</a><a href="/docs.jsonld">Hydra (JSON-LD)</a></header>
<div id="swagger-ui" data-url="${options.specUrl}" data-login-path="${options.loginPath ?? ''}"></div>
<script src="${safeHref(asset('swagger-ui-bundle.js'))}"></script>
<script src="${safeHref(asset('trellis-docs.js'))}"></script>
</body>
</html>
`;
}

/**
 * What the page may load (Fetch's CSP integration): only same-origin scripts, no inline script;
 * Swagger UI sets inline styles and shows data: images, hence those two allowances.
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
