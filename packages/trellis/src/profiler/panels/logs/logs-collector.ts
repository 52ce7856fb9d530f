import type { DataCollector } from '../../data-collector.ts';
import type { LogRecord } from '../../../logging/log-record.ts';

export interface LogsData {
  readonly records: readonly LogRecord[];
  /** Count per level, for the menu badge. */
  readonly levels: Readonly<Record<string, number>>;
}

/** The pino records written on behalf of the request (or of the sub-request, for a child). */
export const logsCollector: DataCollector<LogsData> = {
  name: 'logs',
  collect(ctx) {
    const records = ctx.logs.map((r) => ({ ...r, context: ctx.redaction.fields(r.context) }));
    const levels: Record<string, number> = {};
    for (const r of records) levels[r.level] = (levels[r.level] ?? 0) + 1;
    return { records, levels };
  },
};
