import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { defineResource, type ResourceOptions } from './define-resource.ts';
import { closestName } from './closest-name.ts';

const task = { name: 'Task', path: '/tasks', schema: Type.Object({ id: Type.Readonly(Type.Integer()), title: Type.String() }) } satisfies ResourceOptions;
const BUILT_IN = 'The built-in ones are getCollection, get, post, put, patch, delete; a custom operation needs a method';

test('a declaration that cannot work is a DefinitionError naming the resource and the fix', () => {
  const cases: [Partial<ResourceOptions>, string][] = [
    [{ operations: { getColection: true } }, `Resource "Task": unknown operation "getColection"; did you mean "getCollection"? ${BUILT_IN}`],
    [{ operations: { Patch: { security: 'ROLE_USER' } } }, `Resource "Task": unknown operation "Patch"; did you mean "patch"? ${BUILT_IN}`],
    [{ operations: { publish: { path: '/:id/publish' } } }, `Resource "Task": unknown operation "publish"; ${BUILT_IN}`],
    [{ operations: { publish: { method: 'POST', path: ':id/publish' } } }, 'Resource "Task": operation "publish" has path ":id/publish", which must start with "/" (e.g. "/:id/publish"), relative to the resource\'s path'],
    [{ path: 'tasks' }, 'Resource "Task": path "tasks" must start with "/" (e.g. "/tasks")'],
    [{ path: '' }, 'Resource "Task": path "" must start with "/" (e.g. "/")'],
    [{ path: '/tasks/' }, 'Resource "Task": path "/tasks/" must not end with "/" (items are at <path>/<id>)'],
    [{ path: '/my tasks' }, 'Resource "Task": path "/my tasks" may not hold spaces, "?" or "#"'],
    [{ relations: { owner: 'User' } }, 'Resource "Task": relation "owner" is not a schema property'],
  ];
  for (const [change, message] of cases) {
    assert.throws(() => defineResource({ ...task, ...change }), (e: Error) => e.name === 'DefinitionError' && e.message === message, message);
  }
});

test('custom operations with a method and a path, and the built-ins, are declared as before', () => {
  const resource = defineResource({ ...task, operations: { getCollection: true, get: true, publish: { method: 'POST', path: '/:id/publish' } } });
  assert.deepEqual(resource.operations.map((o) => [o.name, o.method, o.path]), [['getCollection', 'GET', '/tasks'], ['get', 'GET', '/tasks/:id'], ['publish', 'POST', '/tasks/:id/publish']]);
});

test('the closest name: a few letters off, case aside; none when nothing is close', () => {
  assert.equal(closestName('getColection', ['getCollection', 'get']), 'getCollection');
  assert.equal(closestName('ipartal', ['partial', 'ipartial', 'exact']), 'ipartial');
  assert.equal(closestName('DELETE', ['delete', 'get']), 'delete');
  assert.equal(closestName('publish', ['getCollection', 'get', 'post', 'put', 'patch', 'delete']), null);
});
