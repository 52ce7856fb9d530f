import { Type, dateFilter, defineResource, orderFilter, rangeFilter, Ref, searchFilter, type SecurityContext } from 'trellis';

/** Whether the object's `author` reference names the authenticated user. */
const authoredByUser = ({ user, object }: SecurityContext) => {
  const author = (object as { author?: unknown } | null)?.author;
  return user !== null && author instanceof Ref && String(author.id) === String(user.id);
};

export const Review = defineResource({
  name: 'Review',
  path: '/reviews',
  description: "A reader's review of a book.",
  schema: Type.Object({
    id: Type.Readonly(Type.Integer({ description: 'Identifier.' })),
    rating: Type.Integer({ minimum: 0, maximum: 5, description: 'From 0 to 5 stars.' }),
    body: Type.String({ minLength: 1, maxLength: 10_000, description: 'The review.' }),
    author: Type.String({ description: 'IRI of the User who wrote it.' }),
    book: Type.String({ description: 'IRI of the Book reviewed.' }),
    publicationDate: Type.Readonly(Type.String({ format: 'date-time', description: 'When it was published.' })),
  }),
  relations: { author: 'User', book: 'Book' },
  operations: {
    // Anyone reads.
    getCollection: true,
    get: true,
    // Signed-in users post, as themselves.
    post: {
      security: 'ROLE_USER',
      securityMessage: 'Sign in to post a review.',
      securityPostDenormalize: authoredByUser,
      securityPostDenormalizeMessage: 'You may only post reviews as yourself.',
    },
    // Only the author edits, and may not hand the review to someone else.
    patch: {
      security: authoredByUser,
      securityMessage: 'Only the author of a review may edit it.',
      securityPostDenormalize: authoredByUser,
      securityPostDenormalizeMessage: 'You may not change the author of a review.',
    },
    delete: {
      security: async (ctx) => authoredByUser(ctx) || (await ctx.isGranted('ROLE_ADMIN')),
      securityMessage: 'Only the author of a review or an administrator may remove it.',
    },
  },
  filters: [searchFilter({ book: 'exact', author: 'exact' }), rangeFilter(['rating']), dateFilter(['publicationDate']), orderFilter(['publicationDate', 'rating'])],
});
