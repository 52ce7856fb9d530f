import { Type, defineResource, orderFilter, searchFilter } from 'trellis';

export const Author = defineResource({
  name: 'Author',
  path: '/authors',
  description: 'A person who wrote books.',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer({ description: 'Identifier.' })),
    name: Type.String({ minLength: 1, maxLength: 255, description: 'Full name.' }),
    birthDate: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Date of birth.' })),
    biography: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()], { description: 'A short biography.' })),
  }),
  operations: {
    getCollection: true,
    get: true,
    post: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may add authors.' },
    patch: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may edit authors.' },
    delete: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may remove authors.' },
  },
  filters: [searchFilter({ name: 'ipartial' }), orderFilter(['name', 'birthDate'])],
});
