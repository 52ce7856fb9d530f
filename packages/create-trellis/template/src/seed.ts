import type { Database } from 'trellis';

/** A few tasks on an empty database, so the first `npm start` has something to show. */
export async function seedIfEmpty(db: Database): Promise<void> {
  const { count } = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  if (Number(count) > 0) return;
  await db
    .insertInto('tasks')
    .values([
      { title: 'Read the Trellis README', done: true },
      { title: 'Declare my first resource', done: false },
      { title: 'Open a profile at /_profiler/latest', done: false },
    ])
    .execute();
}
