/**
 * A migration that failed, named, with the database's reason: what `trellis migrate` and a
 * start that migrates first (`trellis serve`, `npm start`) both say in one line, since the fix is
 * in that migration or the database, not in a stack through the migrator.
 */
export class MigrationError extends Error {
  /** The failing migration's name, when the migrator said which. */
  readonly migration: string | null;

  constructor(migration: string | null, cause: unknown) {
    super(`Migration ${migration ? `"${migration}" ` : ''}failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationError';
    this.migration = migration;
  }
}
