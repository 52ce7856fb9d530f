import type { DataCollector } from '../../data-collector.ts';
import type { LogRecord } from '../../../logging/log-record.ts';
import { cutStringEnd } from '../../../logging/cut-string.ts';
import { withoutSecretStart } from '../../without-secret-start.ts';

export interface LogsData {
  readonly records: readonly LogRecord[];
  /** Count per level, for the menu badge. */
  readonly levels: Readonly<Record<string, number>>;
}

/**
 * A string the record kept as its beginning (logging/cut-string.ts) loses an end that begins a
 * secret: the profile's scrub replaces whole secrets only.
 */
function cutEndScrubbed(text: string, secrets: readonly string[]): string {
  const end = cutStringEnd(text);
  return end < 0 ? text : `${withoutSecretStart(text.slice(0, end), secrets)}${text.slice(end)}`;
}

function cutEndsScrubbed(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return cutEndScrubbed(value, secrets);
  // Records are redacted no deeper than this (redact-secrets.ts): nothing was cut below it.
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => cutEndsScrubbed(v, secrets, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutEndsScrubbed(v, secrets, depth + 1)]));
}

/** The pino records written on behalf of the request (or of the sub-request, for a child). */
export const logsCollector: DataCollector<LogsData> = {
  name: 'logs',
  collect(ctx) {
    const fields = ctx.logs.map((r) => ({ ...r, context: ctx.redaction.fields(r.context) }));
    const secrets = ctx.redaction.secrets();
    const records = secrets.length === 0 ? fields : fields.map((r) => ({ ...r, message: cutEndScrubbed(r.message, secrets), context: cutEndsScrubbed(r.context, secrets, 0) as LogRecord['context'] }));
    const levels: Record<string, number> = {};
    for (const r of records) levels[r.level] = (levels[r.level] ?? 0) + 1;
    return { records, levels };
  },
};
