import type { SafeHtml } from '../../../html/html.ts';
import type { Profile } from '../../profile.ts';
import type { AppFacts } from '../../app-facts.ts';
import type { QueryDescription } from '../../describe-query.ts';

export interface PanelContext {
  readonly timeZone: string;
  /** The running app's facts (versions, configuration, resources), for panels about the process rather than the request. */
  readonly app?: () => AppFacts;
  /** The page's query parameters (a panel's own filters: `?panel=time&min=1`), strings only. */
  readonly params?: Readonly<Record<string, string>>;
  /** The methods the running app allows on a routed path (null: no route), for the Routing panel. */
  readonly allowedMethods?: (path: string) => readonly string[] | null;
  /** How the running app's resource reads a collection query (filters' bound values, the page), for the API panel. */
  readonly describeQuery?: (resource: string, operation: string, query: Readonly<Record<string, unknown>>) => QueryDescription | null;
  /** A signed EXPLAIN link for query `query` (1-based) of a profile, when EXPLAIN is available. */
  readonly explainHref?: (token: string, query: number, sql: string) => string;
}

/**
 * One entry of the profile page's menu and the panel it opens. Contract: `render` escapes every
 * value (it builds with the `html` template only) and copes with missing or partial collector data
 * (older profiles, a collector that failed), never throwing.
 */
export interface Panel {
  /** URL value of `?panel=`, usually the collector's name. */
  readonly name: string;
  readonly label: string;
  /** A short count or flag for the menu, with a severity; null for none. */
  badge(profile: Profile): { readonly text: string; readonly level?: 'error' | 'warn' } | null;
  render(profile: Profile, ctx: PanelContext): SafeHtml;
}

/** A collector's data, or null when it is absent or recorded a failure. */
export function dataOf<T>(profile: Profile, name: string): T | null {
  const data = profile.collectors[name];
  if (data === null || typeof data !== 'object' || 'error' in data) return null;
  return data as T;
}
