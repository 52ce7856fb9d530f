import type { ResourceDefinition } from './define-resource.ts';
import type { ResourceRegistry } from './resource-registry.ts';

/**
 * How many relations deep an embed path may go (`book.author` is 2). Each level is one query per
 * page and one access decision per related object; a bound keeps a self-referencing relation
 * (`parent.parent.…`) from turning one request into as many queries as the client likes.
 */
export const MAX_EMBED_DEPTH = 3;

/** The resource `path` leads to from `resource` (`book.author` from Review is Author), or null when a segment is no readable relation. */
export function embedTarget(registry: ResourceRegistry, resource: ResourceDefinition, path: string): ResourceDefinition | null {
  const segments = path.split('.');
  if (segments.length > MAX_EMBED_DEPTH) return null;
  let current = resource;
  for (const segment of segments) {
    const property = current.property.get(segment);
    if (!property?.relation || property.writeOnly) return null;
    current = registry.target(current, segment);
  }
  return current;
}

/**
 * Embed paths grouped by their first relation: `author, book, book.author` is
 * `author → {}`, `book → {author}`. Each level is embedded (and its access decided) for the
 * whole page at once, then the next level for the objects it loaded.
 */
export function embedTree(paths: Iterable<string>): Map<string, Set<string>> {
  const tree = new Map<string, Set<string>>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    const head = dot < 0 ? path : path.slice(0, dot);
    let rest = tree.get(head);
    if (rest === undefined) tree.set(head, (rest = new Set()));
    if (dot >= 0) rest.add(path.slice(dot + 1));
  }
  return tree;
}

/** Every embed path of `resource` up to MAX_EMBED_DEPTH, breadth first (`author`, `book`, `book.author`): what the OpenAPI document lists. */
export function embedPaths(registry: ResourceRegistry, resource: ResourceDefinition): string[] {
  const out: string[] = [];
  let level: [string, ResourceDefinition][] = [['', resource]];
  for (let depth = 1; depth <= MAX_EMBED_DEPTH && level.length > 0; depth++) {
    const next: [string, ResourceDefinition][] = [];
    for (const [prefix, current] of level) {
      for (const p of current.relations) {
        if (p.writeOnly) continue;
        const path = prefix === '' ? p.name : `${prefix}.${p.name}`;
        out.push(path);
        next.push([path, registry.target(current, p.name)]);
      }
    }
    level = next;
  }
  return out;
}
