import type { DataCollector } from '../../data-collector.ts';
import type { ProfiledRequest, QueryRecord } from '../../profiled-request.ts';
import { isCutParameter } from '../../recorded-query.ts';
import { runnableSql } from '../../runnable-sql.ts';
import { stagesOf } from '../../api-record.ts';
import type { Redaction } from '../../redact.ts';
import { withoutSecretStart } from '../../without-secret-start.ts';
import { formatterLoaded, loadSqlFormatter, sqlLayout } from './sql-layout.ts';

export interface QueryData {
  readonly sql: string;
  /** The statement laid out for reading (sql-formatter), or the SQL as run when it cannot parse it. */
  readonly formatted: string;
  readonly parameters: readonly unknown[];
  readonly durationMs: number;
  readonly atMs: number;
  readonly error: string | null;
  /** The 1-based number of its statement in `statements`. */
  readonly statement: number;
  /** The statement with its parameters written in, to paste into a database console. */
  readonly runnable: string;
  /** Rows returned or affected, when the driver said (SQLite), else null. */
  readonly rows: number | null;
  /** The resource pipeline stage it ran in (provide, process, …), when a resource operation ran. */
  readonly stage: string | null;
  /** Run on a connection other than the app's database: EXPLAIN there would plan another database's query. */
  readonly foreign?: true;
}

export interface StatementData {
  readonly sql: string;
  readonly count: number;
  readonly durationMs: number;
  /** Run REPEATED_AT times or more in one request: the N+1 pattern (a query per row of another). */
  readonly repeated: boolean;
  /** Where the app ran it from (path:line), known for a statement run more than once. */
  readonly origin: string | null;
}

export interface DbData {
  readonly queries: readonly QueryData[];
  readonly statements: readonly StatementData[];
  readonly count: number;
  readonly durationMs: number;
  readonly failed: number;
  /** Queries past the per-request cap, not kept. */
  readonly notKept: number;
  readonly slowMs: number;
}

/** The same statement this many times in one request is flagged (Symfony's Doctrine panel and django-debug-toolbar flag similar). */
export const REPEATED_AT = 5;
/** Slower than this, a query is flagged. */
export const SLOW_MS = 100;

const EMPTY: DbData = { queries: [], statements: [], count: 0, durationMs: 0, failed: 0, notKept: 0, slowMs: SLOW_MS };

/**
 * A parameter's secrets scrubbed; a cut one (recorded-query.ts) also loses an end that begins a
 * secret, which the scrub cannot recognise once the secret is cut in two.
 */
function scrubParameters(parameters: readonly unknown[], redaction: Redaction): readonly unknown[] {
  const scrubbed = redaction.scrub(parameters);
  if (!scrubbed.some(isCutParameter)) return scrubbed;
  const secrets = redaction.secrets();
  return scrubbed.map((p) => (isCutParameter(p) ? { ...p, cut: withoutSecretStart(p.cut, secrets) } : p));
}


/** The stage running at `atMs` (ms from the request's start), from the pipeline's stage records. */
function stageAt(stages: readonly { stage: string; startMs: number; durationMs: number; outcome: string }[], atMs: number): string | null {
  for (const s of stages) if (s.outcome !== 'skipped' && atMs >= s.startMs - 0.001 && atMs <= s.startMs + s.durationMs + 0.001) return s.stage;
  return null;
}

/**
 * The database queries a request ran (`trellis:db:query`, Kysely on SQLite and PostgreSQL): SQL
 * laid out, parameters (with every secret the profile's redaction found replaced), duration,
 * failures; identical statements grouped, and flagged when one runs REPEATED_AT times or more.
 */
export const dbCollector: DataCollector<DbData> = {
  name: 'db',
  collect(ctx) {
    const recorded = ctx.queries ?? [];
    if (recorded.length === 0) return EMPTY;
    if (!formatterLoaded()) return loadSqlFormatter().then(() => collectQueries(ctx, recorded));
    return collectQueries(ctx, recorded);
  },
};

function collectQueries(ctx: ProfiledRequest, recorded: readonly QueryRecord[]): DbData {
  // Parameters have no names: a secret is known by having been found in the request (its
  // credential headers, secret-named query and body fields), then scrubbed wherever it recurs.
  const { redaction } = ctx;
  redaction.learnRequest(ctx.request);
  const groups = new Map<string, { count: number; durationMs: number; index: number }>();
  for (const q of recorded) {
    const g = groups.get(q.sql);
    if (g) {
      g.count++;
      g.durationMs += q.durationMs;
    } else groups.set(q.sql, { count: 1, durationMs: q.durationMs, index: groups.size + 1 });
  }
  // Once per statement: one not kept (sqlLayout) may take a while to lay out, and run a thousand times.
  const layouts = new Map([...groups.keys()].map((sql) => [sql, sqlLayout(sql)]));
  const stages = stagesOf(ctx.api);
  const queries = recorded.map((q) => {
    const parameters = scrubParameters(q.parameters, redaction);
    return {
      sql: q.sql,
      formatted: layouts.get(q.sql)!,
      parameters,
      runnable: runnableSql(q.sql, parameters),
      durationMs: q.durationMs,
      atMs: q.atMs,
      error: q.error === null ? null : redaction.scrub(q.error),
      statement: groups.get(q.sql)!.index,
      stage: stageAt(stages, q.atMs),
      rows: q.rows ?? null,
      ...(q.foreign ? { foreign: true as const } : {}),
    };
  });
  const origins = new Map<string, string>();
  for (const q of recorded) if (q.origin && !origins.has(q.sql)) origins.set(q.sql, q.origin);
  const statements = [...groups].map(([sql, g]) => ({ sql, count: g.count, durationMs: g.durationMs, repeated: g.count >= REPEATED_AT, origin: origins.get(sql) ?? null }));
  return {
    queries,
    statements,
    count: recorded.length,
    durationMs: recorded.reduce((sum, q) => sum + q.durationMs, 0),
    failed: recorded.filter((q) => q.error !== null).length,
    notKept: ctx.queriesNotKept ?? 0,
    slowMs: SLOW_MS,
  };
}
