/**
 * Spectral's OpenAPI ruleset (`spectral:oas`, every rule of its recommended set, none turned off)
 * linting the running bookshop's /docs.json and /docs.yaml: no error, no warning, no hint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import spectralCore from '@stoplight/spectral-core';
import parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { runningBookshop } from './running-bookshop.ts';

const shop = runningBookshop();
const { Spectral, Document } = spectralCore;

async function lint(path: string, parser: typeof parsers.Json | typeof parsers.Yaml): Promise<string[]> {
  const text = await (await fetch(`${shop.url()}${path}`)).text();
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await spectral.run(new Document(text, parser as typeof parsers.Json, path));
  return results.map((r) => `${r.severity} ${r.code} ${r.path.join('.')}: ${r.message}`);
}

test('/docs.json: 0 errors, 0 warnings from spectral:oas', async () => {
  assert.deepEqual(await lint('/docs.json', parsers.Json), []);
});

test('/docs.yaml: the same document as YAML, as clean', async () => {
  assert.deepEqual(await lint('/docs.yaml', parsers.Yaml), []);
});

test('the ruleset is live: a document without servers or contact is reported', async () => {
  const doc = (await (await fetch(`${shop.url()}/docs.json`)).json()) as Record<string, any>;
  delete doc.servers;
  delete doc.info.contact;
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const codes = (await spectral.run(new Document(JSON.stringify(doc), parsers.Json, '/mutated.json'))).map((r) => String(r.code)).sort();
  assert.deepEqual(codes, ['info-contact', 'oas3-api-servers']);
});
