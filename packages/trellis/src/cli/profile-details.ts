import type { DbData } from '../profiler/panels/db/db-collector.ts';
import type { ExceptionData } from '../profiler/panels/exception/exception-collector.ts';
import type { TimeData } from '../profiler/panels/time/time-collector.ts';
import type { Profile } from '../profiler/profile.ts';
import { formatTime } from '../profiler/ui/format-time.ts';
import { dataOf } from '../profiler/ui/panels/panel.ts';
import { columnWidths, printable, tableLine } from './fit-table.ts';
import type { Output } from './output.ts';

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;

/** `profiler:show <token>`: the request's facts, its phases, and a line per panel it has data for. */
export function profileLines(out: Output, p: Profile): string[] {
  const status = p.statusCode >= 500 ? out.red(String(p.statusCode)) : p.statusCode >= 400 ? out.yellow(String(p.statusCode)) : out.green(String(p.statusCode));
  const lines = [`${status} ${printable(p.method)} ${printable(p.url)}`, out.dim(printable(`token ${p.token} · ${formatTime(p.time)} · ${ms(p.durationMs)} · ip ${p.ip}`))];
  if (p.parent) lines.push(`sub-request of ${p.parent}`);
  for (const child of p.children) lines.push(`sub-request ${child}`);
  const time = dataOf<TimeData>(p, 'time');
  if (time && time.phases.length > 0) lines.push('', 'phases', ...time.phases.map((ph) => `  ${printable(ph.name).padEnd(18)} ${ms(ph.durationMs).padStart(10)}`));
  const db = dataOf<DbData>(p, 'db');
  const exception = dataOf<ExceptionData>(p, 'exception');
  lines.push('', 'panels (--panel <name>)');
  for (const name of Object.keys(p.collectors)) {
    let note = '';
    if (name === 'db' && db) note = `${db.count} ${db.count === 1 ? 'query' : 'queries'}, ${ms(db.durationMs)}${db.failed ? `, ${db.failed} failed` : ''}`;
    if (name === 'exception' && exception && exception.chain.length > 0) note = `${exception.chain[0]!.class}: ${exception.chain[0]!.message}`;
    lines.push(`  ${printable(name)}${note ? `  ${out.dim(printable(note))}` : ''}`);
  }
  return lines;
}

/** `--panel db`: the queries as a table (time, stage, statement on one line); other panels as JSON. */
export function panelLines(out: Output, p: Profile, panel: string, width: number | null): string[] {
  const db = panel === 'db' ? dataOf<DbData>(p, 'db') : null;
  if (!db) return JSON.stringify(p.collectors[panel], null, 2).split('\n');
  const header = ['#', 'time', 'stage', 'sql'];
  const rows = db.queries.map((q, i) => [String(i + 1), ms(q.durationMs), q.stage ?? '', printable(q.sql.replace(/\s+/g, ' '))]);
  const widths = columnWidths([header, ...rows], width, 3);
  return [
    `${db.count} ${db.count === 1 ? 'query' : 'queries'}, ${ms(db.durationMs)}${db.notKept ? ` (${db.notKept} not kept)` : ''}`,
    tableLine(header, widths, (_, t) => out.dim(t)),
    ...rows.map((r, i) => tableLine(r, widths, (c, t) => (c === 1 && db.queries[i]!.durationMs >= db.slowMs ? out.yellow(t) : c === 3 && db.queries[i]!.error ? out.red(t) : t))),
  ];
}
