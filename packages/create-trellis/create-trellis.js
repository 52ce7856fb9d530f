#!/usr/bin/env node
// npm init trellis my-api  (or: npx create-trellis my-api)
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { scaffold } from './scaffold.js';

const HELP = `Usage: npm init trellis <directory> [-- options]

Creates a Trellis API in <directory>: one resource, its migration, a seed, an admin-user
command, .env.example, a test, and a README whose two commands are npm install && npm start
and npm test.

Options:
  --database <url>   DATABASE_URL to write into .env (default: SQLite in var/data.db)
  --trellis <spec>   the trellis dependency (default: ^<this starter's version>; a tarball path works)
  -y, --yes          ask nothing (the default when not in a terminal)
  -h, --help         this text`;

const version = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      database: { type: 'string' },
      trellis: { type: 'string', default: `^${version}` },
      yes: { type: 'boolean', short: 'y', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (error) {
  console.error(`${error.message}\n\n${HELP}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

let dir = positionals[0];
let databaseUrl = values.database;
const interactive = process.stdin.isTTY && process.stdout.isTTY && !values.yes;
if (interactive && (!dir || databaseUrl === undefined)) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  if (!dir) dir = (await rl.question('Project directory: (my-api) ')).trim() || 'my-api';
  if (databaseUrl === undefined) databaseUrl = (await rl.question('Database URL: (SQLite in var/data.db; or postgres://…) ')).trim() || undefined;
  rl.close();
}
if (!dir) {
  console.error(`Name the project directory.\n\n${HELP}`);
  process.exit(2);
}

try {
  const { target, files } = scaffold({ dir, trellis: values.trellis, databaseUrl });
  const where = relative(process.cwd(), target) || '.';
  console.log(`Created ${where} (${files.length} files).\n\nNext:\n  cd ${where}\n  npm install && npm start\n  npm test`);
} catch (error) {
  console.error(`Could not create the project: ${error.message}`);
  process.exit(1);
}
