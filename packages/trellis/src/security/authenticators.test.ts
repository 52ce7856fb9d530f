import { apiKeyHash } from './api-key-hash.ts';
import { ApiKeyAuthenticator } from './api-key-authenticator.ts';
import { authenticatorContract } from './authenticator.contract.ts';
import { BasicAuthenticator } from './basic-authenticator.ts';
import { JwtAuthenticator } from './jwt-authenticator.ts';
import { JwtIssuer } from './jwt-issuer.ts';
import { loadJwtKeys } from './jwt-keys.ts';
import { MemoryUserProvider } from './memory-user-provider.ts';
import { hashPassword } from './password.ts';

const API_KEY = 'tk_contract_0123456789abcdef';
const users = new MemoryUserProvider([
  { id: 7, email: 'carol@example.test', passwordHash: await hashPassword('carol-password', { N: 1024, r: 8, p: 1 }), roles: ['ROLE_USER'], apiKeyHash: apiKeyHash(API_KEY) },
]);
const jwtConfig = { secret: 'contract-secret-contract-secret-0123', publicKeyFile: null, privateKeyFile: null, issuer: 'trellis', audience: 'trellis', ttlSeconds: 600 };
const keys = loadJwtKeys(jwtConfig);
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

authenticatorContract('jwt', async () => {
  const token = await new JwtIssuer({ keys, issuer: 'trellis', audience: 'trellis', ttlSeconds: 600 }).issue((await users.findById('7'))!);
  const [header, payload] = token.split('.');
  return {
    authenticator: new JwtAuthenticator({ keys, issuer: 'trellis', audience: 'trellis', users, realm: 'api' }),
    valid: async () => ({ authorization: `Bearer ${token}` }),
    expectedUser: 'carol@example.test',
    invalid: [
      { headers: { authorization: 'Bearer not-a-jwt-secretpart' }, secret: 'secretpart' },
      { headers: { authorization: `Bearer ${header}.${payload}.forgedsignaturexyz` }, secret: 'forgedsignaturexyz' },
    ],
  };
});

authenticatorContract('api_key', async () => ({
  authenticator: new ApiKeyAuthenticator({ users, realm: 'api' }),
  valid: async () => ({ 'x-api-key': API_KEY }),
  expectedUser: 'carol@example.test',
  invalid: [{ headers: { 'x-api-key': 'tk_wrong_guessed_key_42' }, secret: 'tk_wrong_guessed_key_42' }],
}));

authenticatorContract('basic', async () => ({
  authenticator: new BasicAuthenticator({ users, realm: 'api' }),
  valid: async () => ({ authorization: basic('carol@example.test:carol-password') }),
  expectedUser: 'carol@example.test',
  invalid: [
    { headers: { authorization: basic('carol@example.test:hunter2-wrong') }, secret: 'hunter2-wrong' },
    { headers: { authorization: 'Basic !!!not-base64-topsecret' }, secret: 'topsecret' },
  ],
}));
