import type { User } from './user.ts';

/** What an authenticator reads from a request: its headers (a FastifyRequest is one). */
export interface AuthenticationRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Turns the credentials of one scheme (a bearer JWT, an API key, Basic) into a user.
 *
 * Contract:
 * - Resolves to null when the request carries none of this scheme's credentials, so the next
 *   authenticator can try.
 * - Resolves to the user when the credentials are valid.
 * - Rejects with a 401 HttpError from the error table when credentials of its scheme are present
 *   but malformed, expired or wrong, with a `WWW-Authenticate` header naming its scheme
 *   (RFC 9110 §11.6.1). Never any other status, never a 500 for client input.
 * - Never puts the credential itself in an error message, a log line or an event.
 */
export interface Authenticator {
  readonly name: string;
  /**
   * The request headers (lower case) this scheme reads its credentials from. When none of them is
   * present, `authenticate` must resolve to null, so the firewall skips the call: anonymous
   * requests then cost no promise. Omit it for schemes that read anything else.
   */
  readonly credentialHeaders?: readonly string[];
  authenticate(request: AuthenticationRequest): Promise<User | null>;
}
