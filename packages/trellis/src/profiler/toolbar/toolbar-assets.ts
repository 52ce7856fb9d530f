import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Where the toolbar's files are served (toolbar-route.ts); static routes win over `/_wdt/:token`. */
export const TOOLBAR_SCRIPT_PATH = '/_wdt/toolbar.js';
export const TOOLBAR_STYLE_PATH = '/_wdt/toolbar.css';

export interface ToolbarAsset {
  readonly body: string;
  readonly type: string;
  readonly etag: string;
}

function asset(file: string, type: string): ToolbarAsset {
  const body = readFileSync(new URL(file, import.meta.url), 'utf8');
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
}

let assets: { script: ToolbarAsset; style: ToolbarAsset } | undefined;

/** The toolbar's script and stylesheet, read on first use (an app that never shows a page pays nothing). */
export function toolbarAssets(): { readonly script: ToolbarAsset; readonly style: ToolbarAsset } {
  return (assets ??= {
    script: asset('./toolbar.client.js', 'text/javascript; charset=utf-8'),
    style: asset('./toolbar.css', 'text/css; charset=utf-8'),
  });
}
