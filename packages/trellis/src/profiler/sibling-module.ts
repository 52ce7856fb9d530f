/**
 * The URL of a module beside `base`, with base's own extension: `.ts` when running from the
 * sources (the workspace), `.js` once built (an installed package). Worker entry points are
 * URLs, which the build's import rewriting does not touch.
 */
export function siblingModule(name: string, base: string): URL {
  const extension = base.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${extension}`, base);
}
