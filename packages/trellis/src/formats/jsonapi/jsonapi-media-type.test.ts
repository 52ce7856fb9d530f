import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonApiAcceptRefusal, jsonApiContentTypeRefusal } from './jsonapi-media-type.ts';

const code = (e: { code: string } | null) => e?.code ?? null;

test('Content-Type: only ext and profile pass; quoted values may hold ; , and escaped quotes', () => {
  assert.equal(jsonApiContentTypeRefusal(undefined), null);
  assert.equal(jsonApiContentTypeRefusal('application/json; charset=utf-8'), null, 'not JSON:API: not these rules');
  assert.equal(jsonApiContentTypeRefusal('application/vnd.api+jsonl; x=1'), null);
  assert.equal(jsonApiContentTypeRefusal('application/vnd.api+json'), null);
  assert.equal(jsonApiContentTypeRefusal('application/vnd.api+json; profile="a\\"b;c=d, e"'), null);
  assert.equal(jsonApiContentTypeRefusal('application/vnd.api+json; ext=" "'), null, 'an ext naming nothing asks for nothing');
  assert.equal(code(jsonApiContentTypeRefusal('application/vnd.api+json; profile="a\\"b"; x=1')), 'jsonapi_content_type_parameter');
  assert.equal(jsonApiContentTypeRefusal('APPLICATION/VND.API+JSON; Charset=UTF-8')?.message, 'The content-type "APPLICATION/VND.API+JSON; Charset=UTF-8" is not supported: the JSON:API media type may carry only the "ext" and "profile" parameters, not "charset".');
  assert.equal(code(jsonApiContentTypeRefusal('application/vnd.api+json; ext=https://jsonapi.org/ext/atomic')), 'jsonapi_content_type_extension');
  assert.equal(code(jsonApiContentTypeRefusal('application/vnd.api+json; novalue')), 'jsonapi_content_type_parameter');
});

test('Accept: refused only when every JSON:API instance is unusable; q is a weight, not a parameter', () => {
  assert.equal(jsonApiAcceptRefusal(undefined), null);
  assert.equal(jsonApiAcceptRefusal('*/*'), null);
  assert.equal(jsonApiAcceptRefusal('application/vnd.api+json;q=0.1'), null);
  assert.equal(jsonApiAcceptRefusal('application/vnd.api+json; v=1, application/vnd.api+json; profile=x'), null);
  assert.equal(code(jsonApiAcceptRefusal('application/vnd.api+json; v=1, application/json')), 'jsonapi_accept_parameter');
  assert.equal(code(jsonApiAcceptRefusal('application/vnd.api+json; ext="a b"')), 'jsonapi_accept_extension');
  assert.equal(jsonApiAcceptRefusal('application/vnd.api+json; ext=x, application/vnd.api+json; y=2')?.message, 'Requested format "application/vnd.api+json; ext=x, application/vnd.api+json; y=2" is not supported: every JSON:API media type in it carries a parameter other than "ext" and "profile" ("y").');
  assert.equal(jsonApiAcceptRefusal('application/vnd.api+json; profile="x, application/vnd.api+json; y=2"'), null, 'a comma inside quotes separates nothing');
  assert.equal(jsonApiAcceptRefusal(`${'a/b, '.repeat(2000)}application/vnd.api+json`), null, 'a long header with one usable instance');
});
