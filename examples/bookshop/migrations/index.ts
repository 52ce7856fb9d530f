import type { Migration } from 'trellis';
import * as initialSchema from './001-initial-schema.ts';

/** Every migration by name, in the order they apply. */
export const migrations: Record<string, Migration> = {
  '001-initial-schema': initialSchema,
};
