/** The authenticated user, as authenticators produce it and voters and rules see it. */
export interface User {
  /** Primary key of the user record (what resources reference, e.g. a review's author). */
  readonly id: string | number;
  /** Login identifier: an email for the bookshop. */
  readonly identifier: string;
  /** Granted roles before hierarchy expansion, e.g. ["ROLE_USER"]. */
  readonly roles: readonly string[];
  readonly attributes?: Readonly<Record<string, unknown>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the firewall when a request authenticates; null for anonymous requests. */
    user: User | null;
  }
}
