import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError } from '../kernel/http-error.ts';
import type { AuthenticationRequest, Authenticator } from './authenticator.ts';

export interface AuthenticatorFixture {
  readonly authenticator: Authenticator;
  /** Headers that carry valid credentials of this scheme for `expectedUser`. */
  readonly valid: () => Promise<Record<string, string>>;
  readonly expectedUser: string;
  /** Headers carrying credentials of this scheme that must be refused, with the secret part to look for. */
  readonly invalid: readonly { headers: Record<string, string>; secret: string }[];
}

const request = (headers: Record<string, string>): AuthenticationRequest => ({ headers });

/** The Authenticator contract (see authenticator.ts), run against every implementation. */
export function authenticatorContract(name: string, makeFixture: () => Promise<AuthenticatorFixture>): void {
  describe(`Authenticator contract: ${name}`, () => {
    test('resolves to null when the request carries none of its credentials', async () => {
      const { authenticator } = await makeFixture();
      assert.equal(await authenticator.authenticate(request({})), null);
      assert.equal(await authenticator.authenticate(request({ accept: 'application/json', cookie: 'a=b' })), null);
    });

    test('declared credential headers are the only ones it reads: without them it resolves to null', async () => {
      const fixture = await makeFixture();
      const headers = await fixture.valid();
      const declared = fixture.authenticator.credentialHeaders;
      if (declared === undefined) return;
      const others = Object.fromEntries(Object.entries(headers).filter(([k]) => !declared.includes(k.toLowerCase())));
      assert.equal(await fixture.authenticator.authenticate(request(others)), null);
    });

    test('resolves to the user for valid credentials', async () => {
      const fixture = await makeFixture();
      const user = await fixture.authenticator.authenticate(request(await fixture.valid()));
      assert.equal(user?.identifier, fixture.expectedUser);
    });

    test('rejects bad credentials of its scheme with a 401 HttpError, a challenge, and no echo of the credential', async () => {
      const fixture = await makeFixture();
      assert.ok(fixture.invalid.length > 0);
      for (const { headers, secret } of fixture.invalid) {
        const error = await fixture.authenticator.authenticate(request(headers)).then(
          () => assert.fail(`accepted ${JSON.stringify(headers)}`),
          (e: unknown) => e,
        );
        assert.ok(error instanceof HttpError, String(error));
        assert.equal(error.status, 401);
        assert.match(error.headers['www-authenticate'] ?? '', /realm="/);
        assert.equal(error.message.includes(secret), false, `message echoes the credential: ${error.message}`);
        assert.equal((error.headers['www-authenticate'] ?? '').includes(secret), false);
      }
    });
  });
}
