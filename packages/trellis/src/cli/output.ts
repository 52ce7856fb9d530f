import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/** What commands print through: lines, JSON, aligned tables; colour only on a terminal without NO_COLOR. */
export interface Output {
  line(text: string): void;
  json(value: unknown): void;
  table(header: readonly string[], rows: readonly (readonly string[])[]): void;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
}

// Column widths count what is seen, not the colour codes around it.
const visible = (s: string): number => s.replace(/\x1b\[[0-9;]*m/g, '').length;

export function createOutput(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): Output {
  const colour = Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== 'dumb';
  const paint = (style: Style) => (text: string) => (colour ? styleText(style, text, { validateStream: false }) : text);
  const bold = paint('bold');
  return {
    line: (text) => void stream.write(`${text}\n`),
    json: (value) => void stream.write(`${JSON.stringify(value, null, 2)}\n`),
    table(header, rows) {
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => visible(r[i] ?? ''))));
      const format = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i]! - visible(c)))).join('  ').trimEnd();
      stream.write(`${bold(format(header))}\n`);
      for (const row of rows) stream.write(`${format(row)}\n`);
    },
    green: paint('green'),
    red: paint('red'),
    yellow: paint('yellow'),
    dim: paint('dim'),
  };
}
