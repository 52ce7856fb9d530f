import type { ErrorCodeDefinition } from './error-codes.ts';

/**
 * The profiler's rows of the error table (error-codes.ts, which spreads them in): its pages, its
 * CLI and its MCP server. Kept apart because they are many and belong to one feature; the
 * messages are asserted in `error-codes.test.ts` with the rest.
 */
export const profilerErrorCodes = {
  // An unknown or expired profile token (issue 4); a malformed search field below.
  profiler_token_not_found: {
    status: 404,
    className: 'NotFoundHttpException',
    message: (p) => `Token "${p.token}" not found.`,
  },
  // EXPLAIN from the Database panel: a link the profiler did not sign, a query it may not explain.
  profiler_explain_forbidden: {
    status: 403,
    className: 'AccessDeniedHttpException',
    message: () => 'EXPLAIN refused: this link was not signed by this profiler.',
  },
  profiler_explain_refused: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `EXPLAIN refused for query #${p.query} of profile "${p.token}": ${p.reason}.`,
  },
  // A panel a profile has no data for (the CLI's --panel, the MCP server's read_profile), or the
  // profile page's ?panel= naming none of the profiler's (Symfony's ProfilerController: a 404).
  profiler_panel_not_found: {
    status: 404,
    className: 'NotFoundHttpException',
    message: (p) => `Profile ${p.token} has no panel "${p.panel}"; it has: ${p.panels}.`,
  },
  // The MCP endpoint answers agents, not pages: a browser's request (it carries an Origin) may come
  // from a page that rebound its own name to this machine (DNS rebinding).
  profiler_mcp_origin: {
    status: 403,
    className: 'AccessDeniedHttpException',
    message: () => "The profiler's MCP server does not answer web pages: a request with an Origin header is refused.",
  },
  // A .cpuprofile asked of a profile whose request was not CPU-sampled (issue 17, item 8).
  profiler_cpu_profile_not_found: {
    status: 404,
    className: 'NotFoundHttpException',
    message: (p) => `Profile "${p.token}" has no CPU profile: send the request with "X-Trellis-Profile-CPU: 1" from a client the profiler allows.`,
  },
  profiler_invalid_search: {
    status: 400,
    className: 'BadRequestHttpException',
    message: (p) => `Invalid profiler search parameter "${p.name}": ${p.detail}.`,
  },
  // The live view (issue 17): its event streams are bounded in number (RFC 9110 §15.6.4 with Retry-After).
  profiler_live_busy: {
    status: 503,
    className: 'ServiceUnavailableHttpException',
    message: (p) => `Too many live views are open (${p.max}); close one and try again.`,
  },
  // The profiler's forms (pin, unpin, purge): a POST the profiler did not render (profiler-csrf.ts).
  profiler_csrf_refused: {
    status: 403,
    className: 'AccessDeniedHttpException',
    message: () => 'The profiler refused this form: its CSRF token is missing or does not match. Reload the page and try again.',
  },
} satisfies Record<string, ErrorCodeDefinition>;
