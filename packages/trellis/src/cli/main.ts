// The `trellis` command: serve, migrations, users, OpenAPI and routes of the project in the current
// directory (the nearest package.json with a "trellis": { "app": … } field).
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.ts';
import { ConfigError } from '../app/config.ts';
import { DefinitionError } from '../resources/definition-error.ts';
import { DatabaseUnreachableError } from '../data/wait-for-database.ts';
import { ListenError } from '../app/serve.ts';
import { MigrationError } from '../data/migration-error.ts';
import { makeMigrationCommand } from './commands/make-migration-command.ts';
import { migrateCommands } from './commands/migrate-command.ts';
import { openapiCommand } from './commands/openapi-command.ts';
import { profilerCommands } from './commands/profiler-commands.ts';
import { profilerMcpCommand } from './commands/profiler-mcp-command.ts';
import { routesCommand } from './commands/routes-command.ts';
import { serveCommand } from './commands/serve-command.ts';
import { userCreateCommand } from './commands/user-create-command.ts';
import { createOutput } from './output.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const out = createOutput();
const program = new Command('trellis')
  .description('Trellis: run and inspect a hypermedia API')
  .version(version)
  .showHelpAfterError('(trellis --help lists the commands)')
  .exitOverride();
for (const register of [serveCommand, migrateCommands, makeMigrationCommand, userCreateCommand, openapiCommand, routesCommand, profilerCommands, profilerMcpCommand]) register(program, out);

/** An error of the system (a file that is not there, a port in use): its own message is the line to show. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

// `trellis routes | head`: the reader went away; what is left to print has nobody to read it.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Usage errors (an unknown command or option, a missing value) share the status of the CLI's
  // own bad-value errors, 2; --help and --version end with 0.
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : 2;
  else if (isSystemError(error)) {
    // ENOENT for an --output directory that does not exist, EADDRINUSE for a PORT taken: the
    // operator's fix is in the message, not in a stack.
    process.stderr.write(`${out.red('error')} ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof CliError) {
    process.stderr.write(`${out.red('error')} ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else if (error instanceof ConfigError) {
    // Found while opening what a variable names (TLS_CERT's file, JWT_PRIVATE_KEY's key), after
    // the configuration was read: said as cliConfig says what it finds.
    process.stderr.write(`${out.red('error')} Configuration error: ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof DefinitionError) {
    // A resource declaration that cannot work, found as the app module loads: the message names
    // the resource and the fix; a stack through defineResource would only hide it.
    process.stderr.write(`${out.red('error')} ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof DatabaseUnreachableError || error instanceof ListenError || error instanceof MigrationError) {
    // One line, no stack: the operator's fix is DATABASE_URL, HOST, PORT or a migration, not our code.
    process.stderr.write(`${out.red('error')} ${error.message}\n`);
    process.exitCode = 1;
  } else throw error;
  // The command is over. Each closes what it opened, so the process ends now; should anything
  // still hold the event loop (a pool or thread some library left open), it must not keep a
  // failed start running forever after the line that says why it stopped.
  setTimeout(() => process.exit(), 2000).unref();
}
