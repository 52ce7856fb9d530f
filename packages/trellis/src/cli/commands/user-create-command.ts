import type { Command } from 'commander';
import { sql } from 'kysely';
import { openDatabase } from '../../data/database.ts';
import { isDatabaseUnavailable } from '../../data/database-unavailable.ts';
import { databaseLocation } from '../../data/wait-for-database.ts';
import { hashPassword } from '../../security/password.ts';
import { cliConfig, loadEnv } from '../cli-config.ts';
import { CliError } from '../cli-error.ts';
import { findProject } from '../project.ts';
import type { Output } from '../output.ts';

const ROLE = /^ROLE_[A-Z0-9_]+$/;
/** One @ between a local part and a domain with a dot, nothing blank: what a sign-in address looks like. */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/**
 * What to do about a failed insert: migrate when the table is not there (SQLite "no such table",
 * PostgreSQL 42P01 undefined_table); check DATABASE_URL when the database cannot be reached or
 * does not exist (3D000), where "has migrate run?" sent people to the wrong fix.
 */
function hint(error: unknown, url: string): string {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message ?? '';
  if (code === '42P01' || /no such table/i.test(message)) return ' (has "trellis migrate" run?)';
  if (isDatabaseUnavailable(error) || code === '3D000' || code === '28P01' || code === '28000') return ` (check DATABASE_URL: ${databaseLocation(url)})`;
  return '';
}

/**
 * `trellis user:create --email … [--role ROLE_ADMIN]`: a row in the `users` table the firewall
 * reads. The password comes from TRELLIS_PASSWORD or --password (which shells keep in history).
 */
export function userCreateCommand(program: Command, out: Output): void {
  program
    .command('user:create')
    .description('add a user who can sign in at POST /auth')
    .requiredOption('--email <email>', 'the identifier to sign in with')
    .option('--password <password>', 'the password (or set TRELLIS_PASSWORD, kept out of shell history)')
    .option('--role <role...>', 'roles besides ROLE_USER, e.g. ROLE_ADMIN', [])
    .option('--app <module>', 'the app module')
    .action(async (options: { email: string; password?: string; role: string[]; app?: string }) => {
      // Signing in compares the address exactly: stored with a stray space, it could never be typed.
      const email = options.email.trim();
      if (!EMAIL.test(email) || email.length > 254) throw new CliError('email_invalid', `"${email.slice(0, 80)}" is not an e-mail address.`, 2);
      const password = options.password ?? process.env.TRELLIS_PASSWORD;
      if (!password) throw new CliError('password_missing', 'Give the password with --password or TRELLIS_PASSWORD.', 2);
      if (password.length < 8) throw new CliError('password_short', 'The password must be at least 8 characters long.', 2);
      const bad = options.role.find((r) => !ROLE.test(r));
      if (bad !== undefined) throw new CliError('role_invalid', `"${bad}" is not a role: roles look like ROLE_ADMIN.`, 2);
      const project = findProject(process.cwd(), options.app);
      const config = cliConfig(loadEnv(project.root));
      const db = openDatabase(config.databaseUrl);
      try {
        const roles = [...new Set(['ROLE_USER', ...options.role])];
        // The same address in other letter case is the same mailbox to its owner: refused too.
        const taken = (await db.selectFrom('users').select('email').where(sql<boolean>`lower(email) = ${email.toLowerCase()}`).executeTakeFirst()) as { email: string } | undefined;
        if (taken) throw new CliError('user_exists', taken.email === email ? `A user ${email} exists already.` : `A user ${taken.email} exists already (the same address in other letter case).`);
        await db.insertInto('users').values({ email, password_hash: await hashPassword(password), roles: JSON.stringify(roles) }).execute();
        out.line(`Created ${email} with ${roles.join(', ')}.`);
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError('user_create_failed', `Could not create the user: ${(error as Error).message}${hint(error, config.databaseUrl)}`);
      } finally {
        await db.destroy();
      }
    });
}
