// npm run user:create -- --email you@example.com --password '…' [--role ROLE_ADMIN]
import { parseArgs } from 'node:util';
import { hashPassword, loadConfig, migrate, openDatabase } from 'trellis';
import { migrations } from '../../migrations/index.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string', multiple: true, default: [] } },
});
if (!values.email || !values.password) {
  console.error('Usage: npm run user:create -- --email you@example.com --password <password> [--role ROLE_ADMIN]');
  process.exit(2);
}
if (values.password.length < 8) {
  console.error('The password must be at least 8 characters long.');
  process.exit(2);
}
try {
  process.loadEnvFile('.env');
} catch {
  // optional
}
const database = openDatabase(loadConfig().databaseUrl);
try {
  await migrate(database, migrations);
  const roles = [...new Set(['ROLE_USER', ...values.role])];
  await database
    .insertInto('users')
    .values({ email: values.email, password_hash: await hashPassword(values.password), roles: JSON.stringify(roles) })
    .execute();
  console.log(`Created ${values.email} with ${roles.join(', ')}. Sign in: POST /auth {"email": …, "password": …}`);
} catch (error) {
  console.error(`Could not create the user: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
