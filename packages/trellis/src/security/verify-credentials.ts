import { HttpError } from '../kernel/http-error.ts';
import { SemaphoreFullError } from './bounded-semaphore.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password.ts';
import type { User } from './user.ts';
import type { UserProvider } from './user-provider.ts';

/** Longer passwords are refused (after the same work), so nobody can make scrypt hash megabytes. */
const MAX_PASSWORD = 1024;

/**
 * Checks an email and password. An unknown email, a user without a password and a wrong password
 * all do one scrypt verification (against DUMMY_PASSWORD_HASH when there is no hash) and all
 * resolve to null, so neither the answer nor its timing tells which it was.
 */
export async function verifyCredentials(users: UserProvider, email: string, password: string): Promise<User | null> {
  const found = await users.findByIdentifier(email);
  const tooLong = password.length > MAX_PASSWORD;
  let ok: boolean;
  try {
    ok = await verifyPassword(tooLong ? '' : password, found?.passwordHash ?? DUMMY_PASSWORD_HASH);
  } catch (error) {
    // Every password check slot is taken and the queue is full: a 503 to retry (RFC 9110 §15.6.4).
    if (error instanceof SemaphoreFullError) throw HttpError.of('password_check_busy', {}, { headers: { 'retry-after': '1' } });
    throw error;
  }
  return ok && found !== null && !tooLong ? found.user : null;
}
