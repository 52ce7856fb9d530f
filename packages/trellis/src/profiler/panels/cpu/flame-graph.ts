import { html, type SafeHtml } from '../../../html/html.ts';
import { formatMs } from '../../ui/format-duration.ts';
import { frameKind, frameLocation, frameName, type CpuTreeNode } from './cpu-tree.ts';
import { ellipsis } from '../../../logging/cut-string.ts';

const WIDTH = 1000;
const ROW = 18;
/** Frames narrower than this (in 1/1000 of the width) are not drawn, nor their callees. */
const MIN_WIDTH = 1;
const MAX_DEPTH = 120;
const MAX_FRAMES = 3000;
/** About how wide a character of the labels is, in viewBox units. */
const CHAR = 6.2;

interface Frame {
  readonly node: CpuTreeNode;
  readonly x: number;
  readonly width: number;
  readonly depth: number;
}

/**
 * The call tree as a flame graph (Brendan Gregg's, drawn top-down as DevTools does: callers
 * above callees), an SVG built here: no script on the page. Width is time; each frame's title
 * shows its name, place and times on hover. Drawn from the stored profile when the page is opened.
 */
export function flameGraph(root: CpuTreeNode): SafeHtml {
  const frames: Frame[] = [];
  const total = Math.max(root.totalUs, 1);
  const place = (node: CpuTreeNode, x: number, depth: number): void => {
    const width = (node.totalUs / total) * WIDTH;
    if (width < MIN_WIDTH || depth >= MAX_DEPTH || frames.length >= MAX_FRAMES) return;
    frames.push({ node, x, width, depth });
    let cx = x;
    for (const child of node.children) {
      place(child, cx, depth + 1);
      cx += (child.totalUs / total) * WIDTH;
    }
  };
  place(root, 0, 0);
  const height = (Math.max(0, ...frames.map((f) => f.depth)) + 1) * ROW;
  const pct = (us: number) => `${((us / total) * 100).toFixed(1)} %`;
  return html`<svg class="pf-flame" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="Flame graph of the request's CPU profile">${frames.map((f) => {
    const name = frameName(f.node);
    const where = frameLocation(f.node);
    const title = `${name}${where ? ` (${where})` : ''}\ntotal ${formatMs(f.node.totalUs / 1000)} (${pct(f.node.totalUs)}), self ${formatMs(f.node.selfUs / 1000)}`;
    const chars = Math.floor((f.width - 6) / CHAR);
    const label = chars < 3 ? '' : ellipsis(name, chars);
    return html`<g class="${frameKind(f.node)}"><title>${title}</title><rect x="${f.x.toFixed(2)}" y="${f.depth * ROW}" width="${Math.max(0.5, f.width - 0.5).toFixed(2)}" height="${ROW - 1}" rx="2"/>${label ? html`<text x="${(f.x + 3).toFixed(2)}" y="${f.depth * ROW + 13}">${label}</text>` : ''}</g>`;
  })}</svg>`;
}
