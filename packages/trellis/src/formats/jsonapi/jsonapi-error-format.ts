import type { ErrorFormat } from '../../errors/error-format.ts';
import type { ErrorView } from '../../errors/error-view.ts';
import { exceptionsOf } from '../../errors/problem-body.ts';
import { relationMembers } from '../../errors/relation-members.ts';

interface JsonApiViolation {
  readonly propertyPath?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
}

/**
 * A JSON Pointer (RFC 6901) into the request document for a violation's property: JSON:API's
 * `source.pointer` (§ Error Objects). A relation is under `/data/relationships/author`, where the
 * client sends it; any other property is an attribute (`/data/attributes/title`); the whole body
 * is `/data`.
 */
function pointer(path: string, relations: ReadonlySet<string>): string {
  if (path === '') return '/data';
  const segments = path.split('.').map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1'));
  return `/data/${relations.has(path.split('.')[0]!) ? 'relationships' : 'attributes'}/${segments.join('/')}`;
}

/** The error objects of a view: one per violation for a 422, else one for the error. */
function errorObjects(view: ErrorView): Record<string, unknown>[] {
  const status = String(view.status);
  const violations = view.extensions.violations;
  if (Array.isArray(violations) && violations.length > 0) {
    const relations = relationMembers(view.extensions);
    return (violations as JsonApiViolation[]).map((v) => ({
      status,
      code: typeof v.code === 'string' ? v.code : view.code,
      title: view.title,
      detail: typeof v.message === 'string' ? v.message : view.message,
      source: { pointer: pointer(typeof v.propertyPath === 'string' ? v.propertyPath : '', relations) },
    }));
  }
  return [{ status, code: view.code, title: view.title, detail: view.message }];
}

/**
 * Errors for JSON:API clients (JSON:API 1.1, Error Objects): a top-level `errors` array whose
 * members carry status (as a string), code, title and detail; a 422 gives one per violation with
 * `source.pointer`. In debug the exception chain rides in the document's `meta`.
 */
export const jsonapiErrorFormat: ErrorFormat = {
  name: 'jsonapi',
  mediaTypes: ['application/vnd.api+json'],
  render: (view) =>
    JSON.stringify({
      jsonapi: { version: '1.1' },
      errors: errorObjects(view),
      ...(view.debug
        ? { meta: { message: view.message, exceptions: exceptionsOf(view) } }
        : {}),
    }),
};
