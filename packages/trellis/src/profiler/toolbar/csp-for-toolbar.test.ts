import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSecurityHeaders } from '../../html/page-security-headers.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../docs/swagger-ui-page.ts';
import { cspForToolbar } from './csp-for-toolbar.ts';

const N = 'abc123';

test("the framework's own strict page policy: script and style by nonce, connect to 'self', nothing else widened", () => {
  const policy = pageSecurityHeaders(['body{}'])['content-security-policy']!;
  const widened = cspForToolbar(policy, N);
  assert.match(widened, /^default-src 'none'; style-src 'sha256-[^']+' 'nonce-abc123'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; script-src 'nonce-abc123'; connect-src 'self'$/);
});

test("the docs policy: 'self' already covers script and connect; a nonce would switch off the page's 'unsafe-inline' styles, so none is added", () => {
  assert.equal(
    cspForToolbar(DOCS_CONTENT_SECURITY_POLICY, N),
    "default-src 'self'; script-src 'self' 'nonce-abc123'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  );
});

test('a policy that sets neither default-src nor script-src restricts nothing there: left as it is', () => {
  assert.equal(cspForToolbar("frame-ancestors 'none'", N), "frame-ancestors 'none'");
});

test("'unsafe-inline' with a nonce already there is closed anyway: our nonce joins it", () => {
  assert.equal(cspForToolbar("script-src 'unsafe-inline' 'nonce-theirs'", N), "script-src 'unsafe-inline' 'nonce-theirs' 'nonce-abc123'");
});

test("'unsafe-inline' without 'self': 'self' is added for the toolbar's same-origin files", () => {
  assert.equal(cspForToolbar("default-src 'none'; script-src 'unsafe-inline'", N), "default-src 'none'; script-src 'unsafe-inline' 'self'; style-src 'nonce-abc123'; connect-src 'self'");
});

test('several policies in one header (all must pass) are not touched', () => {
  const policy = "default-src 'none', script-src 'self'";
  assert.equal(cspForToolbar(policy, N), policy);
});

test("odd spacing, upper-case names and a repeated directive (the first wins, CSP3 §2.2.1)", () => {
  assert.equal(cspForToolbar("  SCRIPT-SRC   'NONE' ;script-src *;  ;", N), "script-src 'nonce-abc123'");
});

test('a policy widened once is reused with each new nonce, never with the previous one', () => {
  const first = cspForToolbar("default-src 'none'", 'first000');
  const second = cspForToolbar("default-src 'none'", 'second00');
  assert.equal(first, "default-src 'none'; script-src 'nonce-first000'; style-src 'nonce-first000'; connect-src 'self'");
  assert.equal(second, "default-src 'none'; script-src 'nonce-second00'; style-src 'nonce-second00'; connect-src 'self'");
});
