// Builds the package users install: JavaScript, declarations and source maps in dist/, plus the
// stylesheets and browser scripts (`*.client.js`) the pages read at run time. Node will not strip types inside node_modules, so the
// published `exports` point here; the workspace reads src/ through the `trellis-source` condition.
import { spawnSync } from 'node:child_process';
import { cpSync, globSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(join(root, 'dist'), { recursive: true, force: true });
// `--clean` (postpack) only removes the build: a dist/ left in the workspace would be what plain
// `node` (without the condition) loads, stale the moment a source file changes.
if (process.argv.includes('--clean')) process.exit(0);
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: ['ignore', 2, 2] });
if (result.status !== 0) process.exit(result.status ?? 1);

for (const asset of globSync(['src/**/*.css', 'src/**/*.client.js'], { cwd: root })) {
  const target = join(root, 'dist', asset.slice('src/'.length));
  cpSync(join(root, asset), target);
  console.error(`copied ${asset} -> ${target.slice(root.length)}`);
}

