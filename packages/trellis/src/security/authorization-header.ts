import type { AuthenticationRequest } from './authenticator.ts';

/**
 * The credentials of the Authorization header when its scheme is `scheme`; null otherwise.
 * RFC 9110 §11.1: the scheme name is case-insensitive. An empty credential is returned as "".
 */
export function authorizationCredentials(request: AuthenticationRequest, scheme: string): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const trimmed = header.trim();
  const space = trimmed.indexOf(' ');
  const name = space < 0 ? trimmed : trimmed.slice(0, space);
  if (name.toLowerCase() !== scheme.toLowerCase()) return null;
  return space < 0 ? '' : trimmed.slice(space + 1).trim();
}
