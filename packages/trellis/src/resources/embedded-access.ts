import type { FastifyRequest } from 'fastify';
import { evaluateRule } from '../security/evaluate-rule.ts';
import { securityStateOf } from '../security/security-state.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { embedTree } from './embed-paths.ts';
import type { Operation } from './operation.ts';
import { Ref } from './ref.ts';
import type { Item } from './state-provider.ts';

/** The operation a direct read of one item of `resource` goes through, or null when it has none. */
export function itemReadOperation(resource: ResourceDefinition): Operation | null {
  return resource.operations.find((o) => o.name === 'get') ?? resource.operations.find((o) => o.method === 'GET' && o.kind === 'item') ?? null;
}

/**
 * Embedding a relation reads its target, so it passes the decision a direct `GET` of that item
 * would: the target's item-read `security` rule, for this request's user, with the embedded object
 * as subject. A denied relation goes back to its IRI, as if it had not been asked for; a target
 * with no item read (nothing a client could GET) is never embedded. Every path that expands a
 * relation (`embed`, and any format that includes related resources) goes through here before
 * anything is encoded, so the ETag and the body agree with what this user may see. Nested paths
 * (`book.author`) are judged level by level.
 */
export async function enforceEmbeddedAccess(request: FastifyRequest, resource: ResourceDefinition, items: readonly Item[], paths: Iterable<string>): Promise<void> {
  const state = securityStateOf(request);
  // One decision per target object: a page often embeds the same author many times.
  const decided = new Map<string, Promise<boolean>>();
  const allowed = (ref: Ref): Promise<boolean> => {
    const key = `${ref.resource.name}\u0000${ref.id}`;
    let decision = decided.get(key);
    if (decision === undefined) {
      const read = itemReadOperation(ref.resource);
      if (read === null) decision = Promise.resolve(false);
      else if (read.security === null) decision = Promise.resolve(true);
      else decision = evaluateRule(request, state, 'security', read.security, ref.data, null, read.securityMessage);
      decided.set(key, decision);
    }
    return decision;
  };
  // Level by level: a nested relation (`book.author`) is judged only on the objects its parent
  // relation kept, so nothing reached through a denied object is ever shown.
  const enforce = async (current: ResourceDefinition, objects: readonly Item[], tree: Map<string, Set<string>>): Promise<void> => {
    for (const [property, nested] of tree) {
      if (!current.property.get(property)?.relation) continue;
      const kept = new Set<Item>();
      for (const item of objects) {
        const ref = item[property];
        if (!(ref instanceof Ref) || ref.data === null) continue;
        if (await allowed(ref)) kept.add(ref.data);
        else item[property] = new Ref(ref.resource, ref.id, null);
      }
      const target = [...kept];
      if (nested.size > 0 && target.length > 0) {
        // The relation's resource, from any Ref it left (every Ref of a property targets one resource).
        const first = objects.find((o) => o[property] instanceof Ref)![property] as Ref;
        await enforce(first.resource, target, embedTree(nested));
      }
    }
  };
  await enforce(resource, items, embedTree(paths));
}
