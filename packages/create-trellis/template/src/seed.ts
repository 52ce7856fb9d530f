import { isPostgres, sql, type Database } from 'trellis';

async function hasTasks(db: Database): Promise<boolean> {
  const { count } = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(count) > 0;
}

/**
 * A few tasks on an empty database, so the first `npm start` has something to show. Replicas
 * starting at once on one database seed it once: the emptiness is checked again inside the
 * transaction, under an advisory lock on PostgreSQL (SQLite's transactions already run one at a time).
 */
export async function seedIfEmpty(db: Database): Promise<void> {
  if (await hasTasks(db)) return;
  await db.transaction().execute(async (trx) => {
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.tasks-seed'))`.execute(trx);
    if (await hasTasks(trx)) return;
    await trx
      .insertInto('tasks')
      .values([
        { title: 'Read the Trellis README', done: true },
        { title: 'Declare my first resource', done: false },
        { title: 'Open a profile at /_profiler/latest', done: false },
      ])
      .execute();
  });
}
