import type { User } from './user.ts';
import type { UserCredentials, UserProvider } from './user-provider.ts';

/** A user as the in-memory provider keeps it. */
export interface MemoryUserRecord {
  readonly id: string | number;
  readonly email: string;
  readonly passwordHash: string | null;
  readonly roles: readonly string[];
  /** sha256 hex of the user's API key (see api-key-hash.ts), if they have one. */
  readonly apiKeyHash?: string | null;
}

const toUser = (r: MemoryUserRecord): User => ({ id: r.id, identifier: r.email, roles: [...r.roles] });

/** Users held in memory: for tests, examples and apps without a users table. */
export class MemoryUserProvider implements UserProvider {
  readonly #records: readonly MemoryUserRecord[];

  constructor(records: readonly MemoryUserRecord[] = []) {
    this.#records = records;
  }

  async findByIdentifier(identifier: string): Promise<UserCredentials | null> {
    const r = this.#records.find((x) => x.email === identifier);
    return r ? { user: toUser(r), passwordHash: r.passwordHash } : null;
  }

  async findById(id: string): Promise<User | null> {
    const r = this.#records.find((x) => String(x.id) === id);
    return r ? toUser(r) : null;
  }

  async findByApiKeyHash(sha256Hex: string): Promise<User | null> {
    const r = this.#records.find((x) => x.apiKeyHash != null && x.apiKeyHash === sha256Hex);
    return r ? toUser(r) : null;
  }
}
