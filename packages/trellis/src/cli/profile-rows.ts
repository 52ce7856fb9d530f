import type { ProfileSummary } from '../profiler/profile.ts';
import { formatTime } from '../profiler/ui/format-time.ts';
import { columnWidths, printable, tableLine } from './fit-table.ts';
import type { Output } from './output.ts';

export const SUMMARY_HEADER = ['token', 'time', 'status', 'method', 'duration', 'ip', 'url'] as const;
const URL_COLUMN = 6;

/** A summary as table cells; a sub-request's URL is marked with the parent's token. */
export function summaryCells(s: ProfileSummary): string[] {
  return [s.token, formatTime(s.time), String(s.statusCode), s.method, `${s.durationMs.toFixed(1)} ms`, s.ip, s.parent ? `${s.url} (sub-request of ${s.parent})` : s.url].map(printable);
}

/** Status by class (2xx green, 4xx yellow, 5xx red), a slow duration (≥100 ms yellow, ≥1 s red). */
export function summaryPaint(out: Output, s: ProfileSummary): (column: number, text: string) => string {
  return (column, text) => {
    if (column === 2) return s.statusCode >= 500 ? out.red(text) : s.statusCode >= 400 ? out.yellow(text) : s.statusCode < 300 ? out.green(text) : text;
    if (column === 4) return s.durationMs >= 1000 ? out.red(text) : s.durationMs >= 100 ? out.yellow(text) : text;
    if (column === 0 && s.parent) return out.dim(text);
    return text;
  };
}

/** The summaries as a table fitting `width` (the URL column gives way). */
export function summaryTable(out: Output, summaries: readonly ProfileSummary[], width: number | null): string[] {
  const cells = summaries.map(summaryCells);
  const widths = columnWidths([[...SUMMARY_HEADER], ...cells], width, URL_COLUMN);
  return [tableLine(SUMMARY_HEADER, widths, (_, t) => out.dim(t)), ...cells.map((c, i) => tableLine(c, widths, summaryPaint(out, summaries[i]!)))];
}

/**
 * Widths for a stream of rows not yet seen (`profiler:tail`): the header's or a typical row's,
 * whichever is wider, and the URL the rest of the line.
 */
export function streamWidths(width: number | null): number[] {
  const typical = ['a1b2c3', '22-Nov-2026 08:05:09', '200', 'OPTIONS', '1234.5 ms', '255.255.255.255', ''];
  const widths = columnWidths([[...SUMMARY_HEADER], typical], null, URL_COLUMN);
  if (width !== null) widths[URL_COLUMN] = Math.max(12, width - widths.slice(0, URL_COLUMN).reduce((a, b) => a + b + 2, 0));
  else widths[URL_COLUMN] = Number.MAX_SAFE_INTEGER;
  return widths;
}
