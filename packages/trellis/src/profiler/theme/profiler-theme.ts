import type { FastifyRequest } from 'fastify';

/** The themes a person can pick: `auto` follows the system (prefers-color-scheme). */
export const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];

/** The cookie that remembers the pick, for the profiler's pages only (Path=/_profiler). */
export const THEME_COOKIE = 'trellis_profiler_theme';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** The theme a request's cookie picked, `auto` when none (or a value we never set). */
export function themeOf(request: FastifyRequest): Theme {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || !header.includes(THEME_COOKIE)) return 'auto';
  // RFC 6265 §5.4: `name=value` pairs separated by "; ". The first of the name wins.
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === THEME_COOKIE) {
      const value = pair.slice(eq + 1).trim();
      return isTheme(value) ? value : 'auto';
    }
  }
  return 'auto';
}

const ROOT = '<html lang="en">';

/**
 * A profiler page with the picked theme on its root element (`data-theme`), which the stylesheet
 * reads; `auto` leaves it off and the stylesheet follows the system. Only the page shell the
 * layout writes (`<!DOCTYPE html>` then that exact root) is touched.
 */
export function withTheme(page: string, theme: Theme): string {
  if (theme === 'auto' || !page.startsWith('<!DOCTYPE html>')) return page;
  const at = page.indexOf(ROOT);
  if (at < 0 || at > 40) return page;
  return `${page.slice(0, at)}<html lang="en" data-theme="${theme}">${page.slice(at + ROOT.length)}`;
}
