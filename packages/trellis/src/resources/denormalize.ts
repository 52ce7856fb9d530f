import { RELATION_MEMBERS } from '../errors/relation-members.ts';
import { HttpError } from '../kernel/http-error.ts';
import { mergePatch } from '../formats/merge-patch.ts';
import { compiledQueries } from './compiled-queries.ts';
import type { InputValidator } from './input-validator.ts';
import type { Operation } from './operation.ts';
import { Ref } from './ref.ts';
import type { Item, OperationContext } from './state-provider.ts';
import type { Violation } from './violation.ts';

/**
 * Violations listed in one 422 at most. A 1 MB body of 70,000 unknown members was answered with
 * all 70,000, three times over in debug (detail, violations, the exception): 9 to 12 MB back for
 * one request, and as much in its profile. The first hundred say what is wrong; the count says how
 * much more there is.
 */
export const MAX_LISTED_VIOLATIONS = 100;

/**
 * 422 carrying the violations (RFC 9457 extension member `violations`), the first
 * MAX_LISTED_VIOLATIONS of them; with the operation's resource, its relation names for formats
 * that point at relations apart (relation-members.ts).
 */
export function validationFailed(violations: readonly Violation[], op?: Operation): HttpError {
  const listed = violations.length > MAX_LISTED_VIOLATIONS ? violations.slice(0, MAX_LISTED_VIOLATIONS) : violations;
  const lines = listed.map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message));
  const more = violations.length - listed.length;
  if (more > 0) lines.push(`${more.toLocaleString('en-US')} more ${more === 1 ? 'violation is' : 'violations are'} not listed.`);
  const relations = op && op.resource.relations.length > 0 ? { [RELATION_MEMBERS]: new Set(op.resource.relations.map((p) => p.name)) } : {};
  return HttpError.of('validation_failed', { detail: lines.join('\n') }, { extensions: { violations: listed, ...relations } });
}

/** The writable part of a loaded object as a client would send it (relations as IRIs). */
function writableView(op: Operation, item: Item): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.resource.properties) {
    if (p.readOnly || !(p.name in item)) continue;
    const v = item[p.name];
    out[p.name] = v instanceof Ref ? v.iri : v;
  }
  return out;
}

/**
 * Body → new object. Read-only members are ignored (clients send back what they read); PATCH
 * merges into the loaded object (RFC 7396); the result is checked against the write schema
 * (wrong types, missing and unknown fields are violations, never 500s) and relation IRIs must
 * name existing items. Throws 422 with every violation at once.
 */
export async function denormalize(input: Record<string, unknown>, op: Operation, validator: InputValidator, ctx: OperationContext): Promise<Item> {
  const resource = op.resource;
  const previous = ctx.previousObject;
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(input)) if (!resource.property.get(key)?.readOnly) body[key] = input[key];
  const base = op.merge && previous ? writableView(op, previous) : null;
  const candidate = (base ? mergePatch(base, body) : body) as Record<string, unknown>;

  const violations = validator.violations(candidate);
  const refs = new Map<string, Ref>();
  for (const p of resource.relations) {
    const value = candidate[p.name];
    if (typeof value !== 'string' || violations.some((v) => v.propertyPath === p.name)) continue;
    const target = ctx.registry.get(p.relation!)!;
    const ref = ctx.registry.refFromIri(target, value);
    if (ref === null) {
      violations.push({ propertyPath: p.name, message: `Invalid IRI "${value}": expected an IRI of a ${target.name}.`, code: 'invalid_iri' });
      continue;
    }
    const { rows } = await ctx.db.executeQuery(compiledQueries.exists(ctx.db, target, ref.id));
    if (rows.length === 0) violations.push({ propertyPath: p.name, message: `Item not found for "${value}".`, code: 'not_found' });
    else refs.set(p.name, ref);
  }
  if (violations.length > 0) throw validationFailed(violations, op);

  const object: Item = previous ? { ...previous } : {};
  for (const p of resource.properties) {
    if (p.readOnly) continue;
    if (p.name in candidate) object[p.name] = refs.get(p.name) ?? candidate[p.name];
    // A member removed by the patch (null), or left out of a replacement (PUT), becomes null.
    else if ((base && p.name in base) || (op.method === 'PUT' && !p.writeOnly)) object[p.name] = null;
  }
  return object;
}
