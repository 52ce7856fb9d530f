/** Three-letter English month names, independent of ICU's locale data (`en-GB` says `Sept`). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Numeric parts only: digits are the same in every build of ICU, month names are not. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      day: 'numeric',
      month: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** The seed's profile time: day-monthname-year hours:minutes:seconds, e.g. `22-Nov-2026 08:05:09`. */
export function formatTime(epochMs: number, timeZone = 'UTC'): string {
  const date = new Date(epochMs);
  let [year, month, day, hour, minute, second] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
  if (timeZone !== 'UTC') {
    const parts: Record<string, number> = {};
    for (const { type, value } of formatter(timeZone).formatToParts(date)) parts[type] = Number(value);
    [year, month, day, hour, minute, second] = [parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!];
  }
  return `${pad(day)}-${MONTHS[month]}-${year} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/**
 * Reads a search bound: epoch ms, ISO 8601 (`2026-11-22`, `2026-11-22T08:05`, with or without a
 * zone; none means UTC) or the display format above (UTC). Null when it is none of these.
 */
export function parseTime(text: string): number | null {
  const value = text.trim();
  if (/^\d{10,}$/.test(value)) return Number(value);
  const display = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  if (display) {
    const month = MONTHS.findIndex((m) => m.toLowerCase() === display[2]!.toLowerCase());
    if (month < 0) return null;
    return Date.UTC(Number(display[3]), month, Number(display[1]), Number(display[4] ?? 0), Number(display[5] ?? 0), Number(display[6] ?? 0));
  }
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(value);
  if (!iso) return null;
  const normalized = value.replace(' ', 'T');
  const ms = Date.parse(iso[1] || !normalized.includes('T') ? normalized : `${normalized}Z`);
  return Number.isNaN(ms) ? null : ms;
}
