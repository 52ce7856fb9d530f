import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The script every bookshop server of the bench runs (the bookshop as `npm start` builds it). */
export const BOOKSHOP_SCRIPT = 'bench/servers/bookshop.ts';

/**
 * The Node options the bookshop's start script gives (examples/bookshop/package.json: `node
 * <options> src/main.ts`), so the bench measures the bookshop as `npm start` runs it: its heap
 * bound (--max-old-space-size) decides how much garbage V8 lets grow between collections.
 */
export function bookshopNodeArgs(root: string): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'examples/bookshop/package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`the bookshop's start script does not run node: ${start}`);
  return words.slice(1).filter((w) => w.startsWith('--'));
}
