import type { Profile } from '../profile.ts';

const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const STATUSES = [200, 200, 200, 200, 201, 204, 301, 400, 401, 403, 404, 404, 405, 422, 500];
const PATHS = ['/books', '/books/1', '/authors', '/authors/7', '/reviews', '/users/me', '/robots.txt', '/docs'];

/**
 * Deterministic fake profiles, oldest first, `spacingMs` apart, ending at `end`: the fixture for
 * storage benchmarks and retention tests. Tokens are the index in hex, so they are unique for up to
 * 16,777,216 profiles; about one in ten is a child (error sub-request) of the one before it.
 */
export function* syntheticProfiles(count: number, options: { end?: number; spacingMs?: number } = {}): Generator<Profile> {
  const spacing = options.spacingMs ?? 10;
  const end = options.end ?? Date.now();
  let previous = '';
  for (let i = 0; i < count; i++) {
    const token = i.toString(16).padStart(6, '0');
    const child = i % 10 === 9;
    const statusCode = STATUSES[(i * 7) % STATUSES.length]!;
    const path = PATHS[(i * 3) % PATHS.length]!;
    yield {
      token,
      parent: child ? previous : null,
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      method: METHODS[i % METHODS.length]!,
      url: `http://127.0.0.1:8000${path}?page=${i % 50}`,
      time: end - (count - 1 - i) * spacing,
      statusCode,
      durationMs: (i % 97) / 3,
      children: [],
      collectors: { request: { headers: { accept: 'application/ld+json' } } },
    };
    previous = token;
  }
}
