import type { Migration } from 'trellis';
import * as initialSchema from './001-initial-schema.ts';

/** Every migration by name; they apply in name order, so prefix new ones with the next number. */
export const migrations: Record<string, Migration> = {
  '001-initial-schema': initialSchema,
};
