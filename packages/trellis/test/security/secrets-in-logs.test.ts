import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { createApp } from '../../src/app/create-app.ts';
import { createLogger } from '../../src/logging/create-logger.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { ALICE_API_KEY, PASSWORDS, basic, users } from './security-fixtures.ts';

test('passwords, tokens and API keys never appear in logs or error bodies, at debug level', async () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'trace', captureRequestRecords: true, destination: { write: (line: string) => void lines.push(line) } });
  const app = await createApp({ config: testConfig({ LOG_LEVEL: 'trace' }), logger, tls: null, security: { userProvider: users } });
  app.get('/admin/stats', async () => ({ ok: true }));
  await app.ready();

  const bodies: string[] = [];
  const send = async (options: InjectOptions) => {
    const r = await app.inject(options);
    bodies.push(r.body);
    return r;
  };
  const ok = await send({ method: 'POST', url: '/auth', payload: { email: 'alice@example.test', password: PASSWORDS.alice } });
  const token = ok.json().token as string;
  await send({ method: 'POST', url: '/auth', payload: { email: 'alice@example.test', password: PASSWORDS.bob } });
  await send({ method: 'POST', url: '/auth', headers: { 'content-type': 'application/json' }, payload: `{"email":"alice@example.test","password":"${PASSWORDS.admin}"` });
  await send({ url: '/admin/stats', headers: { authorization: `Bearer ${token}` } });
  const forged = `${token.slice(0, -6)}AAAAAA`;
  await send({ url: '/admin/stats', headers: { authorization: `Bearer ${forged}` } });
  await send({ url: '/admin/stats', headers: { 'x-api-key': ALICE_API_KEY } });
  await send({ url: '/admin/stats', headers: { 'x-api-key': `${ALICE_API_KEY}-wrong` } });
  const basicHeader = basic('bob@example.test', PASSWORDS.bob);
  await send({ url: '/admin/stats', headers: { authorization: basicHeader, accept: 'text/html' } });
  await app.close();

  const log = lines.join('');
  if (process.env.SHOW_LOG) console.log(log);
  assert.ok(lines.length >= 8, `expected request log lines, got ${lines.length}`);
  assert.match(log, /"url":"\/admin\/stats"/);
  assert.match(log, /Invalid credentials\./, 'failures are logged, by message');
  const secrets = [PASSWORDS.alice, PASSWORDS.bob, PASSWORDS.admin, token, token.split('.')[2]!, forged.split('.')[2]!, ALICE_API_KEY, basicHeader.slice(6)];
  for (const secret of secrets) {
    assert.equal(log.includes(secret), false, `a secret reached the log: ${secret.slice(0, 8)}…`);
    for (const body of bodies) assert.equal(body.includes(secret) && body !== ok.body, false, `a secret reached an error body: ${secret.slice(0, 8)}…`);
  }
});

test('a password in a malformed JSON login body does not reach the log or the 400 body', async () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', captureRequestRecords: false, destination: { write: (line: string) => void lines.push(line) } });
  const app = await createApp({ config: testConfig({ LOG_LEVEL: 'info' }), logger, tls: null, security: { userProvider: users } });
  const r = await app.inject({ method: 'POST', url: '/auth', headers: { 'content-type': 'application/json' }, payload: '{"email":"a","password":hunter2secret}' });
  await app.close();
  assert.equal(r.statusCode, 400);
  assert.equal(r.body.includes('hunter2'), false);
  assert.equal(lines.join('').includes('hunter2'), false);
});
