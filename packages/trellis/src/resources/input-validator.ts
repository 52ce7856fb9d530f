import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { Violation } from './violation.ts';
import { INT32, INT64 } from './integer-range.ts';
import { useFastStringLength } from './string-length-keywords.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function propertyPath(error: ErrorObject): string {
  const base = error.instancePath.split('/').slice(1).join('.');
  const child = (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ?? (error.params as { additionalProperty?: string }).additionalProperty;
  return child === undefined ? base : base === '' ? child : `${base}.${child}`;
}

/**
 * A property's own message (`Type.Integer({ maximum: 5, errorMessage: 'At most 5 stars.' })`),
 * which replaces the rule's for any rule of that schema it breaks, as Symfony's constraint
 * `message` option does; the code stays the rule's.
 */
function withOwnMessage(error: ErrorObject, standard: { message: string; code: string }): { message: string; code: string } {
  if (error.keyword === 'required' || error.keyword === 'additionalProperties') return standard;
  const own = (error.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
  return typeof own === 'string' && own !== '' ? { message: own, code: standard.code } : standard;
}

/** Messages in the words API clients already know from Symfony's validator. */
function message(error: ErrorObject): { message: string; code: string } {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { message: 'This value should not be blank.', code: 'required' };
    case 'additionalProperties':
      return { message: 'This field was not expected.', code: 'unknown_field' };
    case 'type':
      return { message: `This value should be of type ${String(p.type).replace(',', '|')}.`, code: 'type' };
    case 'minimum':
    case 'exclusiveMinimum':
      return { message: `This value should be greater than${error.keyword === 'minimum' ? ' or equal to' : ''} ${p.limit}.`, code: 'range' };
    case 'maximum':
    case 'exclusiveMaximum':
      return { message: `This value should be less than${error.keyword === 'maximum' ? ' or equal to' : ''} ${p.limit}.`, code: 'range' };
    case 'minLength':
      return { message: `This value is too short. It should have ${p.limit} character${p.limit === 1 ? '' : 's'} or more.`, code: 'length' };
    case 'maxLength':
      return { message: `This value is too long. It should have ${p.limit} characters or less.`, code: 'length' };
    case 'format':
      // An integer its SQL column cannot hold (integer-range.ts): said as the range it is.
      if (p.format === 'int32' || p.format === 'int64') {
        const { min, max } = p.format === 'int32' ? INT32 : INT64;
        return { message: `This value should be a whole number between ${min} and ${max}.`, code: 'range' };
      }
      return { message: `This value is not a valid ${p.format}.`, code: 'format' };
    case 'pattern':
      return { message: 'This value is not valid.', code: 'pattern' };
    case 'enum':
    case 'const':
      return { message: 'The value you selected is not a valid choice.', code: 'choice' };
    default:
      return { message: `This value is not valid (${error.message ?? error.keyword}).`, code: error.keyword };
  }
}

/** The schema path of the innermost anyOf an error is under, or null outside any. */
function anyOfOf(error: ErrorObject): string | null {
  const at = error.schemaPath.lastIndexOf('/anyOf/');
  return at < 0 ? null : error.schemaPath.slice(0, at);
}

/** A branch of an anyOf refused the value for its type alone (`…/anyOf/1/type`). */
function isBranchTypeError(error: ErrorObject): boolean {
  return error.keyword === 'type' && /\/anyOf\/\d+\/type$/.test(error.schemaPath);
}

/**
 * Where a branch of an anyOf took the value's type and failed it on another rule: for each error
 * under an anyOf (not a branch's type error), that anyOf with the error's value and every value
 * holding it (an object branch's property fails inside the value the anyOf judged). A branch type
 * error at one of these is left out. Built once per validation: a body of thousands of failing
 * items checked each error against every other, quadratic (32,000 items took four minutes).
 */
function matchedBranches(errors: readonly ErrorObject[]): Set<string> {
  const matched = new Set<string>();
  for (const e of errors) {
    const anyOf = anyOfOf(e);
    if (anyOf === null || e.keyword === 'anyOf' || isBranchTypeError(e)) continue;
    for (let path = e.instancePath; ; path = path.slice(0, path.lastIndexOf('/'))) {
      const key = `${anyOf}|${path}`;
      if (matched.has(key)) break;
      matched.add(key);
      if (path === '') break;
    }
  }
  return matched;
}

/**
 * The column format (int32, int64) refusing a number that is no integer at all: its type error
 * says so, and "should be a whole number between -2147483648 and 2147483647" beside it reads as
 * a second, wrong rule (2.5 for a 1 to 5 rating). Left out before the anyOf matching, so a
 * nullable integer is told its type, not only the range.
 */
function isColumnFormatOfFraction(error: ErrorObject): boolean {
  const { format } = error.params as { format?: unknown };
  return error.keyword === 'format' && (format === 'int32' || format === 'int64') && typeof error.data === 'number' && !Number.isInteger(error.data);
}

// verbose: each error carries the schema it broke (for its own `errorMessage`); the success path
// is the same code.
const shared = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, verbose: true }));
useFastStringLength(shared);

/** A compiled body validator (compiled once, at startup) returning violations instead of ajv errors. */
export class InputValidator {
  readonly #validate: ValidateFunction;

  constructor(schema: TSchema) {
    this.#validate = shared.compile(schema);
  }

  violations(input: unknown): Violation[] {
    if (this.#validate(input)) return [];
    const out: Violation[] = [];
    const errors = (this.#validate.errors ?? []).filter((e) => !isColumnFormatOfFraction(e));
    const matched = matchedBranches(errors);
    const seen = new Set<string>();
    for (const error of errors) {
      // anyOf (nullable) repeats the branch errors; report the type once.
      if (error.keyword === 'anyOf') continue;
      // A value of one branch's type that breaks its other rules is told those rules only: a
      // nullable string too long is "too long", not also "should be of type null".
      if (isBranchTypeError(error) && matched.has(`${anyOfOf(error)}|${error.instancePath}`)) continue;
      const v = { propertyPath: propertyPath(error), ...withOwnMessage(error, message(error)) };
      const key = `${v.propertyPath}\u0000${v.code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(v);
    }
    return out;
  }
}
