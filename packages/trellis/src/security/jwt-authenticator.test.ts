import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { HttpError } from '../kernel/http-error.ts';
import { JwtAuthenticator } from './jwt-authenticator.ts';
import { JwtIssuer } from './jwt-issuer.ts';
import { loadJwtKeys } from './jwt-keys.ts';
import { MemoryUserProvider } from './memory-user-provider.ts';

const SECRET = 'unit-secret-unit-secret-unit-secret-01';
const jwtConfig = { secret: SECRET, publicKeyFile: null, privateKeyFile: null, issuer: 'trellis', audience: 'trellis', ttlSeconds: 3600 };
const users = new MemoryUserProvider([{ id: 7, email: 'alice@example.test', passwordHash: null, roles: ['ROLE_USER'] }]);
const keys = loadJwtKeys(jwtConfig);
const authenticator = new JwtAuthenticator({ keys, issuer: 'trellis', audience: 'trellis', users, realm: 'api' });
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const now = () => Math.floor(Date.now() / 1000);

function sign(claims: Record<string, unknown>, options: { secret?: string; alg?: string } = {}) {
  const jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: options.alg ?? 'HS256' });
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
}
const valid = { sub: '7', iss: 'trellis', aud: 'trellis', exp: now() + 60 };

async function rejects(token: string, message: string) {
  await assert.rejects(authenticator.authenticate(bearer(token)), (error: unknown) => {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 401);
    assert.equal(error.message, message);
    assert.match(error.headers['www-authenticate']!, /^Bearer realm="api", error="invalid_token", error_description="/);
    return true;
  });
}

test('a token issued by JwtIssuer authenticates its user; no bearer header is not this authenticator\'s business', async () => {
  const token = await new JwtIssuer({ keys, issuer: 'trellis', audience: 'trellis', ttlSeconds: 60 }).issue({ id: 7, identifier: 'alice@example.test', roles: ['ROLE_USER'] });
  assert.deepEqual(await authenticator.authenticate(bearer(token)), { id: 7, identifier: 'alice@example.test', roles: ['ROLE_USER'] });
  assert.deepEqual(await authenticator.authenticate(bearer(await sign(valid))), { id: 7, identifier: 'alice@example.test', roles: ['ROLE_USER'] });
  assert.equal(await authenticator.authenticate({ headers: {} }), null);
  assert.equal(await authenticator.authenticate({ headers: { authorization: 'Basic YTpi' } }), null);
  assert.deepEqual(await authenticator.authenticate({ headers: { authorization: `bEaReR   ${token}` } }), { id: 7, identifier: 'alice@example.test', roles: ['ROLE_USER'] }, 'RFC 9110 §11.1: scheme is case-insensitive');
});

test('malformed tokens', async () => {
  const malformed = 'The bearer token is malformed: expected a JWT of three base64url segments.';
  await rejects('', malformed);
  await rejects('not-a-jwt', malformed);
  await rejects('a.b', malformed);
  await rejects('a.b.c.d', malformed);
  await rejects('***.***.***', malformed);
  await rejects('e30.e30.', 'The bearer token is signed with algorithm "(invalid)", which is not accepted; expected "HS256".');
  await rejects('bm90LWpzb24.e30.c2ln', malformed);
  // A payload that is not JSON under a valid signature: the signature is checked first, then the payload.
  const input = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.bm90LWpzb24`;
  await rejects(`${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`, malformed);
  await rejects(`${input}.c2ln`, 'The bearer token signature is invalid.');
});

test('oversized tokens are refused before parsing', async () => {
  await rejects('a'.repeat(9000), 'The bearer token is larger than the limit of 8192 bytes.');
});

test('alg none and other algorithms are refused', async () => {
  const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(valid)).toString('base64url')}.`;
  await rejects(none, 'The bearer token is signed with algorithm "none", which is not accepted; expected "HS256".');
  await rejects(await sign(valid, { alg: 'HS512' }), 'The bearer token is signed with algorithm "HS512", which is not accepted; expected "HS256".');
  const weird = `${Buffer.from('{"alg":"<script>"}').toString('base64url')}.e30.c2ln`;
  await rejects(weird, 'The bearer token is signed with algorithm "(invalid)", which is not accepted; expected "HS256".');
});

test('wrong signature, expired, not yet valid, wrong issuer or audience, missing claims, unknown user', async () => {
  await rejects(await sign(valid, { secret: 'another-secret-another-secret-another' }), 'The bearer token signature is invalid.');
  const token = await sign(valid);
  await rejects(`${token.slice(0, -4)}AAAA`, 'The bearer token signature is invalid.');
  await rejects(await sign({ ...valid, exp: now() - 10 }), 'The bearer token has expired.');
  await rejects(await sign({ ...valid, nbf: now() + 600 }), 'The bearer token is not valid yet.');
  await rejects(await sign({ ...valid, iss: 'someone-else' }), 'The bearer token claim "iss" is missing or invalid.');
  await rejects(await sign({ ...valid, aud: 'another-api' }), 'The bearer token claim "aud" is missing or invalid.');
  await rejects(await sign({ ...valid, exp: undefined }), 'The bearer token claim "exp" is missing or invalid.');
  await rejects(await sign({ ...valid, sub: undefined }), 'The bearer token claim "sub" is missing or invalid.');
  await rejects(await sign({ ...valid, sub: '8' }), 'The user of the bearer token does not exist.');
});

test('RS256 and ES256 keys from PEM files; an HS256 token signed with the public key is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-jwt-'));
  for (const [type, alg] of [['rsa', 'RS256'], ['ec', 'ES256']] as const) {
    const pair = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    writeFileSync(join(dir, `${type}.pub.pem`), publicPem);
    writeFileSync(join(dir, `${type}.pem`), pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const fileKeys = loadJwtKeys({ ...jwtConfig, secret: null, publicKeyFile: join(dir, `${type}.pub.pem`), privateKeyFile: join(dir, `${type}.pem`) });
    assert.equal(fileKeys.algorithm, alg);
    const auth = new JwtAuthenticator({ keys: fileKeys, issuer: 'trellis', audience: 'trellis', users, realm: 'api' });
    const token = await new JwtIssuer({ keys: fileKeys, issuer: 'trellis', audience: 'trellis', ttlSeconds: 60 }).issue({ id: 7, identifier: 'alice@example.test', roles: [] });
    assert.equal((await auth.authenticate(bearer(token)))?.id, 7);
    const confused = await sign(valid, { secret: publicPem });
    await assert.rejects(auth.authenticate(bearer(confused)), { status: 401, message: `The bearer token is signed with algorithm "HS256", which is not accepted; expected "${alg}".` });
  }
  const verifyOnly = loadJwtKeys({ ...jwtConfig, secret: null, publicKeyFile: join(dir, 'rsa.pub.pem') });
  assert.equal(verifyOnly.signKey, null);
});

test('without any configured key a random per-process secret is used', () => {
  const a = loadJwtKeys({ ...jwtConfig, secret: null });
  assert.equal(a.ephemeral, true);
  assert.equal(a.algorithm, 'HS256');
  assert.notDeepEqual(a.verifyKey.export(), loadJwtKeys({ ...jwtConfig, secret: null }).verifyKey.export());
});
