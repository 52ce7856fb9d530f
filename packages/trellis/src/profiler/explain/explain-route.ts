import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { html } from '../../html/html.ts';
import { HttpError } from '../../kernel/http-error.ts';
import { isDatabaseUnavailable } from '../../data/database-unavailable.ts';
import type { DbData } from '../panels/db/db-collector.ts';
import type { Profile } from '../profile.ts';
import { layout } from '../ui/layout.ts';
import { dataOf } from '../ui/panels/panel.ts';
import { explainQuery, notExplainable } from './explain-query.ts';
import type { ExplainSigner } from './explain-signer.ts';

export interface ExplainOptions {
  readonly signer: ExplainSigner;
  /** The app's database; without one, EXPLAIN is refused. */
  readonly database: Kysely<unknown> | null;
}

/** The link the Database panel shows for query `query` (1-based) of a profile. */
export function explainHref(signer: ExplainSigner, token: string, query: number, sql: string): string {
  return `/_profiler/${token}/explain/${query}?signature=${signer.sign(token, query, sql)}`;
}

/**
 * `GET /_profiler/<token>/explain/<n>?signature=…`: the plan of query n of that profile, as
 * recorded, never SQL from the request; only when the link was signed by this profiler
 * (explain-signer.ts) and the query is a lone SELECT (explain-query.ts). Behind the profiler's
 * gate like every profiler page.
 */
export function explainRoute(app: FastifyInstance, page: RouteShorthandOptions, load: (token: string) => Promise<Profile | null>, options: ExplainOptions): void {
  app.get<{ Params: { token: string; query: string }; Querystring: { signature?: unknown } }>('/_profiler/:token/explain/:query', page, async (request, reply) => {
    const { token } = request.params;
    const number = /^[1-9]\d{0,5}$/.test(request.params.query) ? Number(request.params.query) : 0;
    const profile = await load(token);
    if (!profile) throw HttpError.of('profiler_token_not_found', { token });
    const recorded = dataOf<DbData>(profile, 'db')?.queries[number - 1];
    if (!recorded) throw HttpError.of('profiler_explain_refused', { query: request.params.query, token, reason: 'the profile has no such query' });
    const signature = request.query.signature;
    if (typeof signature !== 'string' || !options.signer.verify(token, number, recorded.sql, signature)) throw HttpError.of('profiler_explain_forbidden', {});
    const refused =
      notExplainable(recorded.sql) ??
      (options.database === null ? 'the profiler was given no database' : recorded.foreign ? "it ran on a connection other than the app's database" : null);
    if (refused !== null) throw HttpError.of('profiler_explain_refused', { query: number, token, reason: refused });
    let plan: string[];
    try {
      plan = await explainQuery(options.database!, recorded.sql, recorded.parameters);
    } catch (error) {
      // The database away is its 503 (error handler); anything else is this query's answer.
      if (isDatabaseUnavailable(error)) throw error;
      throw HttpError.of('profiler_explain_refused', { query: number, token, reason: `the database could not explain it (${(error as Error)?.message ?? String(error)})` });
    }
    const main = html`<div class="pf-panel"><h2>EXPLAIN of query #${number}</h2>
<p class="pf-related">From profile <a href="/_profiler/${token}?panel=db">${token}</a>.</p>
<pre class="pf-sql">${recorded.formatted}</pre>
<h3>Plan</h3><pre class="pf-body pf-plan">${plan.join('\n')}</pre></div>`;
    return reply.type('text/html; charset=utf-8').send(layout({ title: `EXPLAIN #${number} – Profiler ${token}`, sidebar: html``, main }));
  });
}
