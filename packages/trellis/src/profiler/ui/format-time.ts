const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The seed's profile time: day-monthname-year hours:minutes:seconds, e.g. `22-Nov-2026 08:05:09`. */
export function formatTime(epochMs: number, timeZone = 'UTC'): string {
  const parts: Record<string, string> = {};
  for (const { type, value } of formatter(timeZone).formatToParts(new Date(epochMs))) parts[type] = value;
  return `${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

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
