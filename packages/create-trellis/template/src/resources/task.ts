import { Type, booleanFilter, defineResource, orderFilter, searchFilter } from 'trellis';

/** Your first resource. Add properties here and a migration for their columns. */
export const Task = defineResource({
  name: 'Task',
  path: '/tasks',
  description: 'Something to do.',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer({ description: 'Identifier.' })),
    title: Type.String({ minLength: 1, maxLength: 200, description: 'What to do.' }),
    done: Type.Optional(Type.Boolean({ default: false, description: 'Whether it is done (false when left out).' })),
  }),
  operations: {
    getCollection: true,
    get: true,
    post: { security: 'ROLE_USER', securityMessage: 'Sign in to add tasks.' },
    patch: { security: 'ROLE_USER', securityMessage: 'Sign in to edit tasks.' },
    delete: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may remove tasks.' },
  },
  filters: [searchFilter({ title: 'ipartial' }), booleanFilter(['done']), orderFilter(['title'])],
});
