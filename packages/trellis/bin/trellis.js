#!/usr/bin/env node
// The `trellis` command. Installed (under node_modules, where Node strips no types) it runs the
// build; in the Trellis repository itself, the sources.
// Trellis runs on Node 24 (node:sqlite, type stripping): an older Node is told so in one line,
// before any import it could not load fails with a stack.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(`Trellis needs Node.js 24 or later; this is Node.js ${process.versions.node}. Install Node 24 LTS.`);
  process.exit(1);
}
const installed = import.meta.url.includes('/node_modules/');
await import(installed ? '../dist/cli/main.js' : '../src/cli/main.ts');
