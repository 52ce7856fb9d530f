import type { CreateAppOptions } from 'trellis';

/**
 * What the bookshop's OpenAPI document says beside its resources: who to contact (`info.contact`).
 * `servers` is left to the framework: the origin the document is asked on.
 */
export const docs: NonNullable<CreateAppOptions['docs']> = {
  contact: { name: 'Bookshop API team', url: 'https://bookshop.test/api', email: 'api@bookshop.test' },
};
