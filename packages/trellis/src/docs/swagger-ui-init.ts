/**
 * The script that starts Swagger UI, served as a file (`/docs/assets/trellis-docs.js`) so the page
 * needs no inline script and its Content-Security-Policy can forbid them. Settings come from the
 * `data-*` attributes of `#swagger-ui`, written by swagger-ui-page.ts. A trusted constant.
 *
 * Besides the Authorize button (credentials persist across reloads, `persistAuthorization`), a
 * successful "Try it out" of the login operation authorizes the returned bearer token at once.
 */
export const SWAGGER_UI_INIT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  var loginPath = root.getAttribute('data-login-path');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    showExtensions: true,
    filter: true,
    validatorUrl: null,
    layout: 'BaseLayout',
    presets: [SwaggerUIBundle.presets.apis],
    responseInterceptor: function (response) {
      try {
        var path = new URL(response.url, location.href).pathname;
        if (loginPath && path === loginPath && response.ok && response.body && typeof response.body.token === 'string') {
          window.ui.preauthorizeApiKey('bearerAuth', response.body.token);
        }
      } catch (e) {}
      return response;
    }
  });
})();
`;

/** A few rules over Swagger UI's stylesheet: a title bar naming the API. */
export const DOCS_CSS = `body { margin: 0; background: #fafafa; }
.trellis-docs-bar { background: #1b1b1b; color: #fff; padding: 10px 20px; font: 600 15px/1.4 sans-serif; display: flex; gap: 16px; align-items: baseline; }
.trellis-docs-bar a { color: #9fd3ff; font-weight: 400; font-size: 13px; }
`;
