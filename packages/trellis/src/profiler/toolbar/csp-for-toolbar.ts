/**
 * The host page's Content-Security-Policy, widened just enough for the toolbar and nothing more:
 * its script and stylesheet are allowed by a per-response nonce (CSP Level 3 §6.7.2.3, what
 * Symfony's ContentSecurityPolicyHandler does), and `connect-src` gets `'self'` for the fragment's
 * fetch. A page without a policy is left without one.
 *
 * A directive that allows inline content with `'unsafe-inline'` and no nonce or hash is not given
 * a nonce: the presence of one would switch `'unsafe-inline'` off (CSP3 §6.7.3.2) and break the
 * host page's own inline code. Such a directive gets `'self'` instead when it lacks it (the
 * toolbar's files are same-origin).
 *
 * Only the first policy of a header is changed: a comma-separated list is several policies that
 * must all pass (CSP3 §2.2.1), and widening the first alone would not be enough, so a header with
 * several policies is returned as it is (the toolbar then simply does not load; the page is fine).
 */
export function cspForToolbar(policy: string, nonce: string): string {
  // An app sends a handful of distinct policies: each is widened once, with a stand-in for the nonce.
  let template = widened.get(policy);
  if (template === undefined) {
    template = widenPolicy(policy);
    if (widened.size >= MAX_POLICIES) widened.delete(widened.keys().next().value!);
    widened.set(policy, template);
  }
  return template.length === 1 ? template[0]! : template.join(nonce);
}

const MAX_POLICIES = 64;
const STAND_IN = '\u0000nonce\u0000';
/** Widened policies by the policy they widen, split where the nonce goes. */
const widened = new Map<string, string[]>();

function widenPolicy(policy: string): string[] {
  if (policy.includes(',')) return [policy];
  const nonce = STAND_IN;
  const directives = parse(policy);
  const fallback = directives.get('default-src');
  widen(directives, 'script-src', fallback, nonce);
  widen(directives, 'style-src', fallback, nonce);
  const connect = directives.get('connect-src') ?? fallback;
  if (connect !== undefined && !allowsSelf(connect)) directives.set('connect-src', [...connect.filter((s) => s !== "'none'"), "'self'"]);
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ').split(STAND_IN);
}

function widen(directives: Map<string, string[]>, name: 'script-src' | 'style-src', fallback: string[] | undefined, nonce: string): void {
  const sources = directives.get(name) ?? fallback;
  // No directive and no default-src: everything is allowed already.
  if (sources === undefined) return;
  const lower = sources.map((s) => s.toLowerCase());
  const inlineOpen = lower.includes("'unsafe-inline'") && !lower.some((s) => s.startsWith("'nonce-") || s.startsWith("'sha"));
  if (inlineOpen) {
    if (!allowsSelf(sources)) directives.set(name, [...sources.filter((s) => s !== "'none'"), "'self'"]);
    return;
  }
  // 'none' is only meaningful alone (CSP3 §2.3.1): with a nonce beside it, it goes.
  directives.set(name, [...sources.filter((s) => s.toLowerCase() !== "'none'"), `'nonce-${nonce}'`]);
}

function allowsSelf(sources: readonly string[]): boolean {
  return sources.some((s) => s === "'self'" || s === '*');
}

/** Directive name (lower case) → source list, in order; a repeated directive is ignored (CSP3 §2.2.1). */
function parse(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/[\t\n\f\r ]+/);
    if (!name) continue;
    const key = name.toLowerCase();
    if (!directives.has(key)) directives.set(key, sources);
  }
  return directives;
}
