/**
 * Prints the bookshop's OpenAPI document: `npm run openapi -- --yaml > openapi.yaml`, or JSON
 * without `--yaml`. The document is the one the app serves at /docs.json (it is asked for through
 * `inject`, no port opened), built from the declarations alone: the database is an empty
 * in-memory one, never the configured DATABASE_URL.
 */
import { fstatSync, ftruncateSync, writeFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp, loadConfig, openDatabase, ConfigError } from 'trellis';
import { docs } from './docs.ts';
import { resources } from './resources/index.ts';

const usage = [
  'Usage: npm run openapi -- [--yaml] [--production] [--output <file>]',
  '  --yaml           YAML instead of JSON',
  '  --production     the document of the production configuration (no HTTP Basic scheme)',
  '  --output <file>  write the file instead of standard output',
].join('\n');

let values: { yaml?: boolean; production?: boolean; output?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { yaml: { type: 'boolean' }, production: { type: 'boolean' }, output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}

let config;
try {
  // Only what shapes the document comes from the environment; nothing is opened or listened on.
  config = loadConfig({
    NODE_ENV: values.production ? 'production' : 'development',
    APP_DEBUG: values.production ? '0' : '1',
    PROFILER: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: 'openapi-export-only-openapi-export-only',
  });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}

const database = openDatabase('sqlite::memory:');
const app = await createApp({ name: 'Bookshop', docs, config, resources, database, tls: null });
try {
  // Asked on the address `npm start` serves, so the document's `servers` names it (not inject's localhost:80).
  const res = await app.inject({ method: 'GET', url: values.yaml ? '/docs.yaml' : '/docs.json', headers: { host: 'localhost:8000' } });
  if (res.statusCode !== 200) throw new Error(`GET ${values.yaml ? '/docs.yaml' : '/docs.json'} answered ${res.statusCode}: ${res.body}`);
  const text = values.yaml ? res.body : `${JSON.stringify(res.json(), null, 2)}\n`;
  // npm runs workspace scripts in the workspace; a relative path means where the user typed the command.
  if (values.output) writeFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), values.output), text);
  else if (fstatSync(1).isFile()) {
    // `npm run openapi -- --yaml > openapi.yaml`: npm has already written its "> openapi" banner
    // into the file. Rewrite the file from its first byte so it holds the document alone.
    ftruncateSync(1, 0);
    writeSync(1, text, 0);
  } else process.stdout.write(text);
} finally {
  await app.close();
  await database.destroy();
}
