/**
 * The budgets of issue 3, checked by `npm run bench -- --check` (never by the test suite). A budget
 * names a metric pattern; it applies to every scenario metric matching it, so a new profiled
 * server or resource scenario is covered without editing this list.
 */
export interface Budget {
  readonly description: string;
  /** Scenario names the budget reads; a skipped one makes the budget "not measured". */
  readonly scenarios: readonly string[];
  readonly metric: RegExp;
  readonly op: '>=' | '<';
  readonly limit: number;
  readonly unit: string;
}

export const BUDGETS: readonly Budget[] = [
  { description: 'bookshop production ≥ 0.90 of the Fastify + Kysely baseline', scenarios: ['get-item', 'get-collection', 'post-validation', 'bearer-item'], metric: /^ratio:bookshop-prod$/, op: '>=', limit: 0.9, unit: '×' },
  { description: 'profiler on ≥ 0.80 of profiler off', scenarios: ['get-item', 'not-found', 'hello-json'], metric: /^profiler-ratio:/, op: '>=', limit: 0.8, unit: '×' },
  { description: 'find p95 < 20 ms over the stored profiles', scenarios: ['profiler-find'], metric: /^find-p95-ms:/, op: '<', limit: 20, unit: 'ms' },
  { description: 'profile page render p95 < 30 ms', scenarios: ['profiler-page'], metric: /^page-p95-ms:/, op: '<', limit: 30, unit: 'ms' },
  { description: 'RSS growth < 50 MB between the low and high profiled request counts', scenarios: ['profiler-rss'], metric: /^rss-growth-mb:/, op: '<', limit: 50, unit: 'MB' },
  // Two password checks at once (PASSWORD_HASH_CONCURRENCY) take ~268 MB: a storm must not add more than that and some slack.
  { description: 'login storm without throttle: RSS growth < 350 MB (password checks bounded)', scenarios: ['login-storm'], metric: /^login-storm-rss-growth-mb:off$/, op: '<', limit: 350, unit: 'MB' },
  { description: 'login storm with the default throttle: p99 < 50 ms (refused before any password check)', scenarios: ['login-storm'], metric: /^login-storm-p99-ms:on$/, op: '<', limit: 50, unit: 'ms' },
  { description: 'start to first response ≤ 500 ms warm (built package, SQLite)', scenarios: ['startup'], metric: /^startup-warm-ms$/, op: '<', limit: 500, unit: 'ms' },
  { description: 'start to first response ≤ 1.5 s on a fresh SQLite database (seed included)', scenarios: ['startup'], metric: /^startup-fresh-ms$/, op: '<', limit: 1500, unit: 'ms' },
];

export type Outcome = { readonly skipped: string } | { readonly metrics: Readonly<Record<string, number>> };

export interface BudgetVerdict {
  readonly description: string;
  readonly scenario: string;
  readonly metric: string | null;
  readonly status: 'met' | 'missed' | 'not measured';
  readonly value?: number;
  /** For a miss: how far from the limit, e.g. "short by 0.046 (5.1% of the limit)". */
  readonly detail: string;
}

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(3);
}

export function checkBudgets(outcomes: Readonly<Record<string, Outcome>>, budgets: readonly Budget[] = BUDGETS): BudgetVerdict[] {
  const verdicts: BudgetVerdict[] = [];
  for (const b of budgets) {
    for (const scenario of b.scenarios) {
      const outcome = outcomes[scenario];
      if (outcome === undefined) continue; // not selected in this run (--only)
      if ('skipped' in outcome) {
        verdicts.push({ description: b.description, scenario, metric: null, status: 'not measured', detail: `skipped: ${outcome.skipped}` });
        continue;
      }
      const names = Object.keys(outcome.metrics).filter((m) => b.metric.test(m));
      if (names.length === 0) {
        verdicts.push({ description: b.description, scenario, metric: null, status: 'not measured', detail: 'the scenario ran without the servers this budget needs (see its notes)' });
      }
      for (const metric of names) {
        const value = outcome.metrics[metric]!;
        const met = b.op === '>=' ? value >= b.limit : value < b.limit;
        const gap = Math.abs(value - b.limit);
        const detail = met
          ? `${fmt(value)} ${b.unit} ${b.op} ${fmt(b.limit)} ${b.unit}`
          : `${fmt(value)} ${b.unit}: ${b.op === '>=' ? 'short' : 'over'} by ${fmt(gap)} ${b.unit} (${((gap / b.limit) * 100).toFixed(1)}% of the limit)`;
        verdicts.push({ description: b.description, scenario, metric, status: met ? 'met' : 'missed', value, detail });
      }
    }
  }
  return verdicts;
}
