// What the framework's code imports, an installed app has: every package a module of src/ names
// (at run time or for its types) is a dependency of trellis, or an optional peer the app adds
// when it uses that part (playwright-core for trellis/testing's browser). A package imported for
// its types ships them, or its @types package is a dependency: an app that type-checks its
// dependencies (skipLibCheck off) failed on dist/data/observe-pg.d.ts for want of @types/pg.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = join(PACKAGE, '../..');
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };

function shipped(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return shipped(path);
    return /\.ts$/.test(e.name) && !/\.(test|contract|fixture)\.ts$/.test(e.name) ? [path] : [];
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

function imports(): Map<string, { typesOnly: boolean; from: string }> {
  const found = new Map<string, { typesOnly: boolean; from: string }>();
  for (const file of shipped(join(PACKAGE, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+'([^'.][^']*)'|import\(\s*'([^'.][^']*)'\s*\)/gm)) {
      const specifier = m[3] ?? m[4]!;
      if (specifier.startsWith('node:') || builtinModules.includes(specifier) || specifier === 'trellis' || specifier.startsWith('trellis/')) continue;
      const name = packageOf(specifier);
      const typesOnly = m[2] !== undefined;
      const seen = found.get(name);
      found.set(name, { typesOnly: (seen?.typesOnly ?? true) && typesOnly, from: seen?.from ?? file.slice(PACKAGE.length) });
    }
  }
  return found;
}

function hasOwnTypes(name: string): boolean {
  const dir = [join(PACKAGE, 'node_modules', name), join(ROOT, 'node_modules', name)].find((d) => existsSync(join(d, 'package.json')));
  if (!dir) return false;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { types?: string; typings?: string; exports?: Record<string, unknown>; module?: string; main?: string };
  if (pkg.types ?? pkg.typings) return true;
  if (JSON.stringify(pkg.exports ?? '').includes('"types"')) return true;
  // Declarations beside the entry's JavaScript (Kysely's dist/esm/index.d.ts), as TypeScript finds them.
  const dot = pkg.exports?.['.'] as Record<string, unknown> | string | undefined;
  const entry = (typeof dot === 'string' ? dot : (dot?.import ?? dot?.default)) ?? pkg.module ?? pkg.main ?? 'index.js';
  return typeof entry === 'string' && existsSync(join(dir, entry.replace(/\.(c|m)?js$/, '.d.$1ts')));
}

test('every package the framework imports is a dependency (or an optional peer), with its types', () => {
  const found = imports();
  assert.ok(found.has('fastify') && found.has('pg') && found.has('playwright-core'), [...found.keys()].join(', '));
  const dependencies = manifest.dependencies ?? {};
  const optionalPeers = Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional === true);
  for (const [name, { from, typesOnly }] of found) {
    const typesPackage = `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
    // A types-only package (har-format) is its @types package alone.
    if (typesOnly && typesPackage in dependencies) continue;
    assert.ok(name in dependencies || optionalPeers.includes(name), `${from} imports ${name}, which trellis does not depend on`);
    assert.ok(hasOwnTypes(name) || typesPackage in dependencies, `${from} imports ${name}: it ships no types, and ${typesPackage} is not a dependency`);
  }
});
