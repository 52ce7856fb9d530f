import type { format as Format } from 'sql-formatter';

/**
 * sql-formatter (88 modules) is loaded when a profile with queries is first built, not at
 * startup: the request thread builds profiles only when a page is read (issue 18's startup budget).
 */
let format: typeof Format | null = null;

export async function loadSqlFormatter(): Promise<void> {
  format ??= (await import('sql-formatter')).format;
}

export function formatterLoaded(): boolean {
  return format !== null;
}

/**
 * Layouts already made, by SQL text, the oldest first. An app runs a few dozen statements over and
 * over, and sql-formatter parses each one anew (a chart parser): under 900 KB uploads, laying out
 * the same few statements was an eighth of the profiler thread's time. Bounded in count; a long
 * statement (an IN list of a thousand values) or a long layout (sql-formatter lays 4 kB of nested
 * subqueries out over 1.2 MB) is made again when next met rather than kept.
 */
const layouts = new Map<string, string>();
export const MAX_LAYOUTS = 500;
const MAX_KEPT_SQL = 4096;
const MAX_KEPT_LAYOUT = 16_384;

/**
 * A statement laid out for reading (upper-case keywords, two-space indents), or the SQL as run
 * when sql-formatter cannot parse it or is not loaded yet (`loadSqlFormatter`).
 */
export function sqlLayout(sql: string): string {
  const known = layouts.get(sql);
  if (known !== undefined) return known;
  if (format === null) return sql;
  let layout: string;
  try {
    layout = format(sql, { language: 'sql', keywordCase: 'upper', tabWidth: 2 });
  } catch {
    layout = sql;
  }
  if (sql.length <= MAX_KEPT_SQL && layout.length <= MAX_KEPT_LAYOUT) {
    if (layouts.size >= MAX_LAYOUTS) layouts.delete(layouts.keys().next().value!);
    layouts.set(sql, layout);
  }
  return layout;
}

/** How many layouts are kept (tests). */
export function layoutsKept(): number {
  return layouts.size;
}

/** Whether a statement's layout is kept (tests). */
export function isLayoutKept(sql: string): boolean {
  return layouts.has(sql);
}
