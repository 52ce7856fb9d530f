import { ellipsis } from '../logging/cut-string.ts';

/**
 * Column widths for a table that fits `width` characters: every column as wide as its widest cell,
 * and when the whole is too wide, the `flex` column (a URL) gives up what is missing, down to
 * `minFlex`. `width` null (not a terminal, no COLUMNS) means no limit: a pipe gets whole values.
 */
export function columnWidths(rows: readonly (readonly string[])[], width: number | null, flex: number, minFlex = 12): number[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  if (width === null) return widths;
  const gaps = 2 * (widths.length - 1);
  const total = widths.reduce((a, b) => a + b, 0) + gaps;
  if (total > width) widths[flex] = Math.max(minFlex, widths[flex]! - (total - width));
  return widths;
}

/** A cell cut to `width` (an ellipsis says so) and padded, unless it is the last one. */
export function fitCell(text: string, width: number, last: boolean): string {
  const cut = ellipsis(text, width);
  return last ? cut : cut.padEnd(width);
}

/** One line of a table; `paint` colours a cell after it is cut and padded, so widths count what is seen. */
export function tableLine(cells: readonly string[], widths: readonly number[], paint: (column: number, text: string) => string = (_, t) => t): string {
  return cells.map((c, i) => paint(i, fitCell(c, widths[i]!, i === cells.length - 1))).join('  ').trimEnd();
}

/** The width a table may take on this stream: the terminal's, COLUMNS when set, else none. */
export function terminalWidth(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): number | null {
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns >= 20 && columns <= 10_000) return columns;
  return stream.isTTY && stream.columns ? stream.columns : null;
}

/**
 * Text from a profile made safe to print: control characters (an escape sequence in an error
 * message or a URL a client sent) shown as `\xNN`, never sent to the terminal.
 */
export function printable(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
