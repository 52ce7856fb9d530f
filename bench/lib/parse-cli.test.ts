import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (script: string, ...args: string[]) => spawnSync(process.execPath, [...process.execArgv, join(bench, script), ...args], { encoding: 'utf8', timeout: 30_000 });

for (const script of ['soak.ts', 'instructions.ts']) {
  test(`${script}: --help prints the options and exits 0; an unknown option or a missing value says so, with the usage, and exits 2`, () => {
    const help = run(script, '--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, new RegExp(`^Usage: npm run ${script.replace('.ts', '')} -- \\[options\\]\\n`));
    assert.match(help.stdout, /--requests=N/);
    const unknown = run(script, '--nope');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^Unknown option '--nope'.*\nUsage: npm run /s);
    assert.doesNotMatch(unknown.stderr, /at parseArgs|node:internal/);
    const missing = run(script, '--requests');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^Option '--requests <value>' argument missing\nUsage: /);
  });
}
