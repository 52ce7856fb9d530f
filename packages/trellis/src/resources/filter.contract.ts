/**
 * The contract every Filter keeps (see filter.ts), as one suite run against each: `where` and
 * `orderBy` only narrow or order, reject bad values with a 400 before SQL, build the same query
 * when none of their parameters is present, and, when the filter can `bind`, agree with it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, DummyDriver, type CompiledQuery } from 'kysely';
import { HttpError } from '../kernel/http-error.ts';
import type { ResourceDefinition } from './define-resource.ts';
import type { AnySelect, Filter, FilterContext } from './filter.ts';
import type { ResourceRegistry } from './resource-registry.ts';
import type { QueryParams } from './state-provider.ts';

/** Compiles without a database: the contract is about the SQL written, not the rows found. */
const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

function compile(filter: Filter, context: FilterContext): CompiledQuery {
  let query: AnySelect = db.selectFrom('t');
  if (filter.where) query = filter.where(query, context);
  query = query.selectAll();
  if (filter.orderBy) query = filter.orderBy(query, context);
  return query.compile();
}

function outcome<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    assert.ok(error instanceof HttpError, `a filter throws HttpError, not ${String(error)}`);
    assert.equal(error.status, 400);
    return { error: `${error.code}: ${error.message}` };
  }
}

export interface FilterSamples {
  readonly resource: ResourceDefinition;
  readonly registry: ResourceRegistry;
  /** Valid query strings, in pairs of the same shape where possible (they must bind alike). */
  readonly valid: readonly QueryParams[];
  /** Query strings with a value the filter must refuse. */
  readonly invalid: readonly QueryParams[];
}

export function filterContract(filter: Filter, samples: FilterSamples): void {
  const context = (params: QueryParams): FilterContext => ({ params, resource: samples.resource, registry: samples.registry });
  describe(`Filter contract: ${filter.name}`, () => {
    test('lists its parameters, and its check accepts the resource', () => {
      const parameters = filter.parameters(samples.resource);
      assert.ok(parameters.length > 0);
      for (const p of parameters) assert.ok(samples.resource.property.has(p.property), p.name);
      filter.check?.(samples.resource);
    });

    test('builds the same query whatever the request when none of its parameters is present', () => {
      const none = compile(filter, context({}));
      const other = compile(filter, context({ page: '2', unrelated: 'x', 'order[unknown]': 'sideways' }));
      assert.equal(other.sql, none.sql);
      assert.deepEqual(other.parameters, none.parameters);
    });

    test('refuses bad values with a 400 before any SQL, and bind refuses them alike', () => {
      for (const params of samples.invalid) {
        const built = outcome(() => compile(filter, context(params)));
        assert.ok('error' in built, `${JSON.stringify(params)} is refused`);
        if (filter.bind) assert.deepEqual(outcome(() => filter.bind!(context(params))), built, JSON.stringify(params));
      }
    });

    test('values are bound, never written into the SQL', () => {
      for (const params of samples.valid) {
        const { sql } = compile(filter, context(params));
        for (const value of Object.values(params).flat()) {
          // Short values could be words of the SQL itself (`a` in `escape`); the samples' long ones are telling.
          if (value !== undefined && value.length >= 4 && !/^(true|false|asc|desc)$/i.test(value)) assert.ok(!sql.includes(value), `${value} in ${sql}`);
        }
      }
    });

    if (filter.bind) {
      test('bind gives the values the SQL binds, in order, and one shape means one SQL', () => {
        const byShape = new Map<string, string>();
        for (const params of [{}, ...samples.valid]) {
          const built = compile(filter, context(params));
          const binding = filter.bind!(context(params));
          assert.deepEqual(binding.values, built.parameters, JSON.stringify(params));
          const seen = byShape.get(binding.shape);
          if (seen !== undefined) assert.equal(built.sql, seen, `shape ${binding.shape}`);
          byShape.set(binding.shape, built.sql);
        }
        // The samples come in pairs of one shape, so some shape must have been met twice.
        assert.ok(byShape.size < samples.valid.length + 1, 'samples share shapes');
      });

      test('different SQL never shares a shape', () => {
        const bySql = new Map<string, string>();
        for (const params of [{}, ...samples.valid]) {
          const { sql } = compile(filter, context(params));
          const { shape } = filter.bind!(context(params));
          const seen = bySql.get(shape);
          assert.ok(seen === undefined || seen === sql, `shape ${shape}`);
          bySql.set(shape, sql);
        }
      });
    }
  });
}
