import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { apiKeyHash } from '../../src/security/api-key-hash.ts';
import { MemoryUserProvider } from '../../src/security/memory-user-provider.ts';
import { hashPassword } from '../../src/security/password.ts';
import type { SecurityOptions } from '../../src/security/security-plugin.ts';
import { testConfig } from '../../src/testing/test-config.ts';

/** Cheap scrypt parameters for fixtures only; verification reads them from the hash. */
const FAST = { N: 1024, r: 8, p: 1 };

export const PASSWORDS = { alice: 'alice-password-1', bob: 'bob-password-2', admin: 'admin-password-3' } as const;
export const ALICE_API_KEY = 'tk_alice_0123456789abcdef';

export const users = new MemoryUserProvider([
  { id: 1, email: 'alice@example.test', passwordHash: await hashPassword(PASSWORDS.alice, FAST), roles: ['ROLE_USER'], apiKeyHash: apiKeyHash(ALICE_API_KEY) },
  { id: 2, email: 'bob@example.test', passwordHash: await hashPassword(PASSWORDS.bob, FAST), roles: ['ROLE_USER'] },
  { id: 3, email: 'admin@example.test', passwordHash: await hashPassword(PASSWORDS.admin, FAST), roles: ['ROLE_ADMIN'] },
]);

export const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/** An app with the fixture users and a few routes: `/books` (anyone), `/admin/stats`, `/me`. */
export async function securedApp(env: Record<string, string> = {}, security: SecurityOptions = {}, extraRoutes?: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = await createApp({ config: testConfig(env), tls: null, security: { userProvider: users, ...security } });
  app.get('/books', async () => ({ books: [] }));
  app.get('/admin/stats', async () => ({ users: 3 }));
  app.get('/me', async (request) => ({ user: request.user }));
  extraRoutes?.(app);
  await app.ready();
  return app;
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}
