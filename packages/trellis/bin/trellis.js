#!/usr/bin/env node
// The `trellis` command. Installed (under node_modules, where Node strips no types) it runs the
// build; in the Trellis repository itself, the sources.
const installed = import.meta.url.includes('/node_modules/');
await import(installed ? '../dist/cli/main.js' : '../src/cli/main.ts');
