import { Type, defineResource } from 'trellis';

/** Accounts, read-only through the API (reviews link to them); administrators see all, users themselves. */
export const User = defineResource({
  name: 'User',
  path: '/users',
  description: 'A customer or administrator account.',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer({ description: 'Identifier.' })),
    email: Type.Readonly(Type.String({ format: 'email', description: 'Login e-mail address.' })),
  }),
  operations: {
    get: {
      security: async ({ user, object, isGranted }) =>
        user !== null && ((await isGranted('ROLE_ADMIN')) || String(user.id) === String((object as { id: unknown }).id)),
      securityMessage: 'You may only see your own account.',
    },
  },
});
