/**
 * WWW-Authenticate challenges (RFC 9110 §11.6.1). Parameter values are quoted-strings; an error
 * description is reduced to the characters RFC 6750 §3 allows in it.
 */
const quote = (value: string) => `"${value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, "'")}"`;

export function challenge(scheme: string, params: Readonly<Record<string, string | undefined>>): string {
  const parts = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${quote(v)}`);
  return parts.length > 0 ? `${scheme} ${parts.join(', ')}` : scheme;
}

/** RFC 6750 §3: the challenge for a missing (no error) or rejected (`invalid_token`) bearer token. */
export function bearerChallenge(realm: string, description?: string): string {
  return challenge('Bearer', { realm, error: description === undefined ? undefined : 'invalid_token', error_description: description });
}
