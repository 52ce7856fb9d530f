// The starter's package.json for the new project, without installing it (starter.test.ts does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// @ts-expect-error: plain JavaScript (it runs from node_modules, where no types are stripped), without declarations.
import { dependencySpec, scaffold } from '../scaffold.js';

const ROOT_MANIFEST = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { allowScripts: Record<string, boolean> };

test('a tarball named by a path relative to where the starter ran is reached from the new project', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'create-trellis-spec-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'builds'));
  writeFileSync(join(dir, 'builds', 'trellis-0.1.0.tgz'), '');
  const cwd = process.cwd();
  process.chdir(dir);
  t.after(() => process.chdir(cwd));
  const { target } = scaffold({ dir: join('apps', 'my-api'), trellis: './builds/trellis-0.1.0.tgz' });
  const spec = (JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { dependencies: { trellis: string } }).dependencies.trellis;
  assert.equal(spec, 'file:../../builds/trellis-0.1.0.tgz');
  assert.ok(existsSync(resolve(target, spec.slice('file:'.length))), 'npm install in the project finds the tarball');
});

test('dependency specs: relative paths rewritten from the project, everything else kept as given', () => {
  const target = '/work/apps/my-api';
  const cwd = '/work';
  for (const [given, written] of [
    ['./trellis-0.1.0.tgz', 'file:../../trellis-0.1.0.tgz'],
    ['trellis-0.1.0.tgz', 'file:../../trellis-0.1.0.tgz'],
    ['../trellis.tar.gz', 'file:../../../trellis.tar.gz'],
    ['file:./checkout/packages/trellis', 'file:../../checkout/packages/trellis'],
    ['./apps/my-api/vendor/trellis.tgz', 'file:vendor/trellis.tgz'],
    ['/srv/builds/trellis-0.1.0.tgz', '/srv/builds/trellis-0.1.0.tgz'],
    ['file:/srv/builds/trellis-0.1.0.tgz', 'file:/srv/builds/trellis-0.1.0.tgz'],
    ['~/builds/trellis-0.1.0.tgz', '~/builds/trellis-0.1.0.tgz'],
    ['^0.1.0', '^0.1.0'],
    ['latest', 'latest'],
    ['trellis-dev/trellis', 'trellis-dev/trellis'],
    ['github:trellis-dev/trellis#main', 'github:trellis-dev/trellis#main'],
    ['https://example.test/trellis-0.1.0.tgz', 'https://example.test/trellis-0.1.0.tgz'],
  ]) {
    assert.equal(dependencySpec(given, target, cwd), written, given);
  }
});

test('the new project denies @scarf/scarf its install script, as this workspace does: npm install does not warn about it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'create-trellis-scripts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { target } = scaffold({ dir: join(dir, 'my-api'), trellis: '^0.1.0' });
  const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  assert.equal(ROOT_MANIFEST.allowScripts['@scarf/scarf'], false);
  assert.deepEqual(manifest.allowScripts, { '@scarf/scarf': false });
});

test('the new project imports only what it depends on: `trellis` and Node\'s own modules', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'create-trellis-imports-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { target } = scaffold({ dir: join(dir, 'my-api'), trellis: '^0.1.0' });
  const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
  const undeclared: string[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') visit(path);
        continue;
      }
      if (!entry.name.endsWith('.ts')) continue;
      // A package resolved through another's dependencies (npm hoisting) breaks under pnpm or any strict layout.
      for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)) {
        if (specifier!.startsWith('.') || specifier!.startsWith('node:')) continue;
        const name = specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!;
        if (!declared.has(name)) undeclared.push(`${path.slice(target.length + 1)}: ${specifier}`);
      }
    }
  };
  visit(target);
  assert.deepEqual(undeclared, []);
});
