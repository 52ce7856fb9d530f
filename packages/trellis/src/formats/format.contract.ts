/**
 * The contract every Format implementation keeps (see format.ts), as one suite run against each.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { HttpError } from '../kernel/http-error.ts';
import { defineResource } from '../resources/define-resource.ts';
import { Ref } from '../resources/ref.ts';
import { ResourceRegistry } from '../resources/resource-registry.ts';
import type { Format } from './format.ts';

const Shelf = defineResource({ name: 'Shelf', path: '/shelves', schema: Type.Object({ id: Type.Readonly(Type.Integer()), label: Type.String() }) });
const Box = defineResource({
  name: 'Box',
  path: '/boxes',
  schema: Type.Object({ id: Type.Readonly(Type.Integer()), name: Type.String(), note: Type.Union([Type.String(), Type.Null()]), shelf: Type.Union([Type.String(), Type.Null()]) }),
  relations: { shelf: 'Shelf' },
});
const registry = new ResourceRegistry([Shelf, Box]);
const item = { id: 7, name: 'Tools "& co"', note: null, shelf: new Ref(Shelf, 3) };
const embeddedItem = { ...item, shelf: new Ref(Shelf, 3, { id: 3, label: 'Top' }) };

export function formatContract(format: Format): void {
  describe(`Format contract: ${format.name}`, () => {
    test('declares media types and an extension', () => {
      assert.ok(format.mediaTypes.length > 0 && format.mediaTypes.every((m) => /^[a-z]+\/[a-z0-9.+-]+$/.test(m)));
      assert.match(format.extension, /^[a-z]+$/);
    });

    test('encodes an item as JSON that mentions its identifier and relation target, deterministically', () => {
      const text = format.encode({ kind: 'item', item }, { resource: Box, embedded: false });
      assert.equal(text, format.encode({ kind: 'item', item: { ...item } }, { resource: Box, embedded: false }));
      const doc = JSON.parse(text);
      assert.equal(typeof doc, 'object');
      assert.ok(text.includes('"Tools \\"& co\\""'));
      assert.ok(text.includes('/shelves/3') || text.includes('"Shelf"'), 'the relation is linked');
    });

    test('encodes an embedded relation with its data', () => {
      const text = format.encode({ kind: 'item', item: embeddedItem }, { resource: Box, embedded: true });
      assert.ok(text.includes('"Top"'));
    });

    test('encodes a page, empty or not', () => {
      const links = { self: '/boxes?page=2', first: '/boxes?page=1', last: '/boxes?page=3', previous: '/boxes?page=1', next: '/boxes?page=3' };
      const page = JSON.parse(format.encode({ kind: 'collection', items: [item, { ...item, id: 8 }], totalItems: 9, links, itemsPerPage: 2 }, { resource: Box, embedded: false }));
      assert.ok(JSON.stringify(page).includes('8'));
      const empty = format.encode({ kind: 'collection', items: [], totalItems: 0, links: null, itemsPerPage: 30 }, { resource: Box, embedded: false });
      assert.doesNotThrow(() => JSON.parse(empty));
    });

    test('decodes its own request shape into API-shaped input', () => {
      const bodies: Record<string, unknown> = {
        jsonld: { '@context': '/contexts/Box', '@type': 'Box', name: 'n', shelf: '/shelves/3' },
        json: { name: 'n', shelf: '/shelves/3' },
        jsonhal: { name: 'n', _links: { shelf: { href: '/shelves/3' } } },
        jsonapi: { data: { type: 'Box', attributes: { name: 'n' }, relationships: { shelf: { data: { type: 'Shelf', id: '3' } } } } },
      };
      assert.deepEqual(format.decode(bodies[format.name] ?? bodies.json, { resource: Box, registry }), { name: 'n', shelf: '/shelves/3' });
    });

    test('rejects a body that is not a document with a 400', () => {
      for (const body of [null, [], 'text', 42]) {
        assert.throws(() => format.decode(body, { resource: Box, registry }), (e) => e instanceof HttpError && e.status === 400 && e.code === 'invalid_body');
      }
    });
  });
}
