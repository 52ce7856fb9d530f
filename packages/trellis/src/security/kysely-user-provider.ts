import type { Kysely } from 'kysely';
import type { User } from './user.ts';
import type { UserCredentials, UserProvider } from './user-provider.ts';

interface UserRow {
  id: number | string;
  email: string;
  password_hash: string | null;
  roles: string | string[] | null;
}

const MAX_IDENTIFIER = 320;
/** `users.id` is an SQL integer: anything outside 1..2^31-1 cannot match, and PostgreSQL would reject it. */
const INTEGER_ID = /^[1-9][0-9]{0,9}$/;
const MAX_ID = 2 ** 31 - 1;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** `roles` is a JSON array in text; PostgreSQL json/jsonb columns arrive already parsed. */
function parseRoles(value: UserRow['roles']): string[] {
  let roles: unknown = value;
  if (typeof value === 'string') {
    try {
      roles = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
}

const toUser = (row: UserRow): User => ({ id: typeof row.id === 'string' ? Number(row.id) : row.id, identifier: row.email, roles: parseRoles(row.roles) });

/**
 * Users from the `users` table (id integer, email unique, password_hash, roles JSON text,
 * api_key_hash sha256 hex) through any Kysely dialect. Input is checked before it reaches SQL, so
 * a JWT `sub` of "abc" is a miss, not a PostgreSQL cast error.
 */
export class KyselyUserProvider implements UserProvider {
  readonly #db: Kysely<any>;
  readonly #table: string;

  constructor(db: Kysely<any>, options: { table?: string } = {}) {
    this.#db = db;
    this.#table = options.table ?? 'users';
  }

  #select() {
    return this.#db.selectFrom(this.#table).select(['id', 'email', 'password_hash', 'roles']);
  }

  async findByIdentifier(identifier: string): Promise<UserCredentials | null> {
    if (identifier === '' || identifier.length > MAX_IDENTIFIER) return null;
    const row = (await this.#select().where('email', '=', identifier).executeTakeFirst()) as UserRow | undefined;
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  async findById(id: string): Promise<User | null> {
    if (!INTEGER_ID.test(id) || Number(id) > MAX_ID) return null;
    const row = (await this.#select().where('id', '=', Number(id)).executeTakeFirst()) as UserRow | undefined;
    return row ? toUser(row) : null;
  }

  async findByApiKeyHash(sha256Hex: string): Promise<User | null> {
    if (!SHA256_HEX.test(sha256Hex)) return null;
    const row = (await this.#select().where('api_key_hash', '=', sha256Hex).executeTakeFirst()) as UserRow | undefined;
    return row ? toUser(row) : null;
  }
}
