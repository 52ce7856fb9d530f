import { jwtVerify } from 'jose';
import type { Kysely } from 'kysely';

export interface BaselineUser {
  readonly id: number;
  readonly roles: readonly string[];
}

/**
 * What the bookshop's JWT firewall does, by hand: verify an HS256 bearer token (issuer and audience
 * `trellis`) and load its user. Null for a bad or missing token (the bench only sends good ones).
 */
export function bearerAuthenticator(db: Kysely<any>, secret: string) {
  const key = new TextEncoder().encode(secret);
  return async (authorization: string | undefined): Promise<BaselineUser | null> => {
    if (!authorization?.startsWith('Bearer ')) return null;
    try {
      const { payload } = await jwtVerify(authorization.slice(7), key, { algorithms: ['HS256'], issuer: 'trellis', audience: 'trellis', requiredClaims: ['sub', 'exp'] });
      const row = await db.selectFrom('users').select(['id', 'roles']).where('id', '=', Number(payload.sub)).executeTakeFirst();
      return row ? { id: Number(row.id), roles: JSON.parse(String(row.roles)) as string[] } : null;
    } catch {
      return null;
    }
  };
}
