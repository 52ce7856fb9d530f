import { html, type SafeHtml } from '../html/html.ts';
import type { DataCollector } from './data-collector.ts';
import type { ProfiledRequest } from './profiled-request.ts';
import type { Profile } from './profile.ts';
import { dataOf, type Panel, type PanelContext } from './ui/panels/panel.ts';

/** What `defineProfilerPanel` takes: a panel's data and its page, as one unit. */
export interface ProfilerPanelDefinition<D> {
  /** kebab-case or snake_case: `?panel=<id>`, and the panel's key in the profile's JSON (`collectors.<id>`). */
  readonly id: string;
  /** The menu entry. */
  readonly label: string;
  /**
   * The panel's data for one request: JSON-safe, taken from the request as the profiler recorded
   * it (`ProfiledRequest`), with values that may be secret passed through `request.redaction`.
   * Runs after the response is sent (an app's panels on the request thread; the built-in ones
   * where profiles are built); keeps no state between requests. A panel about the process rather
   * than the request (Configuration) has none: its `render` is given null.
   */
  collect?(request: ProfiledRequest): D | Promise<D>;
  /** The panel's page, built with the `html` template (every value escaped). */
  render(data: D, profile: Profile, ctx: PanelContext): SafeHtml;
  /** A short count or flag for the menu; none when absent or null. */
  badge?(data: D, profile: Profile): { readonly text: string; readonly level?: 'error' | 'warn' } | null;
}

/** A panel with the collector that feeds it (null: it collects nothing): give it to the profiler's `panels`. */
export interface ProfilerPanel extends Panel {
  readonly collector: DataCollector | null;
}

const ID = /^[a-z][a-z0-9]*([-_][a-z0-9]+)*$/;


/**
 * One profiler panel as one unit: its collector and its page, registered together through the
 * profiler's `panels` option (`createApp({ profiler: { panels: [payments] } })`). A profile whose
 * collector failed or predates the panel renders "no data", and one its `render` or `badge` throws on
 * says so in the panel or its badge, rather than failing the page.
 */
export function defineProfilerPanel<D>(definition: ProfilerPanelDefinition<D>): ProfilerPanel {
  const { id, label } = definition;
  if (!ID.test(id)) throw new TypeError(`A profiler panel id is kebab-case or snake_case (a-z, 0-9, - or _), got "${id}"`);
  return {
    name: id,
    label,
    collector: definition.collect ? { name: id, collect: (request) => definition.collect!(request) } : null,
    // The app's code, run on profiles that may hold data of an older shape: every profile page
    // asks every panel for its badge, so one that throws would take the whole profiler down.
    badge(profile) {
      const data = dataOf<D>(profile, id);
      if (data === null || !definition.badge) return null;
      try {
        return definition.badge(data, profile);
      } catch {
        return { text: '!', level: 'error' };
      }
    },
    render(profile, ctx) {
      const data = definition.collect ? dataOf<D>(profile, id) : null;
      if (definition.collect && data === null) return emptyPanel(label);
      try {
        return definition.render(data as D, profile, ctx);
      } catch (error) {
        return failedPanel(label, error);
      }
    },
  };
}


/** The panel's own render threw: said in the panel, the rest of the page still shown. */
function failedPanel(label: string, error: unknown): SafeHtml {
  return html`<h2>${label}</h2><p class="pf-empty">This panel could not be shown: ${(error as Error)?.message ?? String(error)}</p>`;
}

function emptyPanel(label: string): SafeHtml {
  return html`<h2>${label}</h2><p class="pf-empty">No data was collected for this panel.</p>`;
}

/** A panel that brings a collector along (one made with `defineProfilerPanel` that collects). */
export function isProfilerPanel(panel: Panel): panel is ProfilerPanel & { readonly collector: DataCollector } {
  return typeof (panel as Partial<ProfilerPanel>).collector === 'object' && (panel as Partial<ProfilerPanel>).collector !== null;
}
