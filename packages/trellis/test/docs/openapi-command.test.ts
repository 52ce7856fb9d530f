/**
 * The bookshop's export command (`npm run openapi -- --yaml > openapi.yaml`) prints the document
 * the app serves, as YAML or JSON, and refuses unknown options with its usage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { bookshopApp } from './bookshop-app.ts';

const COMMAND = fileURLToPath(new URL('../../../../examples/bookshop/src/openapi-command.ts', import.meta.url));
const run = (...args: string[]) => promisify(execFile)(process.execPath, [COMMAND, ...args], { cwd: fileURLToPath(new URL('../../../../examples/bookshop/', import.meta.url)), env: { ...process.env, INIT_CWD: tmpdir() } });

test('--yaml prints the served document; JSON by default; --output writes a file', async () => {
  const app = await bookshopApp();
  try {
    const served = (await app.inject({ url: '/docs.json', headers: { host: 'localhost:8000' } })).json();
    assert.deepEqual(served.servers, [{ url: 'http://localhost:8000', description: 'This server.' }], 'the address npm start serves');
    const [yaml, json] = await Promise.all([run('--yaml'), run()]);
    assert.deepEqual(parseYaml(yaml.stdout), served);
    assert.deepEqual(JSON.parse(json.stdout), served);
    assert.equal(yaml.stderr, '');
    const dir = mkdtempSync(join(tmpdir(), 'trellis-openapi-'));
    await run('--yaml', '--output', join(dir, 'openapi.yaml'));
    assert.equal(readFileSync(join(dir, 'openapi.yaml'), 'utf8'), yaml.stdout);
  } finally {
    await app.close();
  }
});

test('--production documents no HTTP Basic scheme; an unknown option exits 2 with the usage', async () => {
  const production = JSON.parse((await run('--production')).stdout);
  assert.deepEqual(Object.keys(production.components.securitySchemes), ['bearerAuth', 'apiKey']);
  await assert.rejects(run('--bogus'), (error: { code: number; stderr: string }) => {
    assert.equal(error.code, 2);
    assert.match(error.stderr, /^Unknown option '--bogus'/);
    assert.match(error.stderr, /Usage: npm run openapi -- \[--yaml\]/);
    return true;
  });
});
