import type { User } from './user.ts';

/** A user with the password hash kept for password authentication (`scrypt$…`, see password.ts). */
export interface UserCredentials {
  readonly user: User;
  /** Null for users who cannot log in with a password. */
  readonly passwordHash: string | null;
}

/**
 * Loads users for the authenticators.
 *
 * Contract:
 * - Each method resolves to null for anything it cannot find, including malformed input (an id
 *   that is not an id, an empty string, a very long string); it never rejects for bad input.
 * - `findByIdentifier` matches the login identifier (the email) exactly.
 * - `findById` takes the id as text (the JWT `sub` claim) and finds the user whose id prints so.
 * - `findByApiKeyHash` takes the lowercase sha256 hex of an API key; keys are never stored in clear.
 * - Returned users carry their own roles (before hierarchy expansion) and are not shared mutable state.
 */
export interface UserProvider {
  findByIdentifier(identifier: string): Promise<UserCredentials | null>;
  findById(id: string): Promise<User | null>;
  findByApiKeyHash(sha256Hex: string): Promise<User | null>;
}
