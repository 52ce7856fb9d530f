import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { validate, compileErrors } from '@readme/openapi-parser';
import { OUTPUT_FORMATS } from '../formats/output-formats.ts';
import { defineResource } from '../resources/define-resource.ts';
import { ResourceRegistry } from '../resources/resource-registry.ts';
import { openApiDocument } from './openapi-document.ts';

const Team = defineResource({ name: 'Team', path: '/teams', schema: Type.Object({ id: Type.Readonly(Type.String()), label: Type.String() }), operations: { get: true } });
const Member = defineResource({
  name: 'Member',
  path: '/members',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer()),
    login: Type.String({ examples: ['ada'] }),
    password: Type.String({ writeOnly: true, minLength: 12 }),
    team: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    active: Type.Boolean(),
  }),
  relations: { team: 'Team' },
  unknownFields: 'ignore',
  pagination: { partial: true },
  operations: { getCollection: true, post: true, activate: { method: 'POST', path: '/:id/activate', security: 'ROLE_ADMIN', deserialize: false } },
});

const doc = openApiDocument({
  name: 'Members',
  registry: new ResourceRegistry([Team, Member]),
  formats: OUTPUT_FORMATS,
  authentication: { loginPath: null, bearer: true, apiKey: false, basic: false },
}) as any;

test('the document of a small declaration is valid OpenAPI 3.1', async () => {
  const result = await validate(structuredClone(doc));
  assert.equal(result.valid, true, result.valid ? '' : compileErrors(result));
  assert.deepEqual(Object.keys(doc.paths), ['/', '/contexts/{name}', '/docs', '/docs.json', '/docs.yaml', '/docs.jsonld', '/teams/{id}', '/members', '/members/{id}/activate']);
  assert.deepEqual(doc.components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT.' } });
});

test('write-only fields are inputs only; read-only fields outputs only; nullable relations accept null', () => {
  const s = doc.components.schemas;
  assert.deepEqual(Object.keys(s.Member.properties), ['id', 'login', 'team', 'active']);
  assert.deepEqual(Object.keys(s['Member.input'].properties), ['login', 'password', 'team', 'active']);
  assert.deepEqual(s['Member.input'].required, ['login', 'password', 'active']);
  assert.equal(s['Member.input'].additionalProperties, true, 'unknownFields: ignore');
  assert.deepEqual(s['Member.input'].properties.password, { type: 'string', writeOnly: true, minLength: 12, examples: ['Member password'] });
  assert.deepEqual(s['Member.input'].properties.team.anyOf, [{ type: 'string', format: 'iri-reference' }, { type: 'null' }]);
  assert.deepEqual(s.Member.properties.team.anyOf, [{ type: 'string', format: 'iri-reference' }, { $ref: '#/components/schemas/Team' }, { type: 'null' }]);
  assert.deepEqual(s.Member.properties.login.examples, ['ada']);
  assert.deepEqual(s['Member.input'].properties.team.examples, ['/teams/1']);
  assert.ok(!JSON.stringify(s.Member).includes('password'));
  assert.ok(!JSON.stringify(s['Member.jsonld']).includes('password'));
  assert.ok(!JSON.stringify(s['Member.jsonapi.resource']).includes('password'));
  assert.deepEqual(doc.paths['/teams/{id}'].get.parameters[0].schema, { type: 'string' }, 'string identifiers');
});

test('partial pagination: no total; a custom operation keeps its path, status and security', () => {
  assert.ok(!doc.components.schemas['Member.jsonld.collection'].required.includes('totalItems'));
  assert.ok(!doc.paths['/members'].get.parameters.some((p: any) => p.name === 'itemsPerPage' && p.schema.default !== 30));
  const activate = doc.paths['/members/{id}/activate'].post;
  assert.equal(activate.operationId, 'activateMember');
  assert.deepEqual(Object.keys(activate.responses), ['201', '401', '403', '406']);
  assert.equal(activate.requestBody, undefined);
  assert.deepEqual(activate.security, [{ bearerAuth: [] }]);
});
