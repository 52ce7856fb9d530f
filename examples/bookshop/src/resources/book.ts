import { Type, dateFilter, defineResource, existsFilter, orderFilter, rangeFilter, searchFilter } from 'trellis';
import { isValidIsbn13 } from './isbn.ts';

export const Book = defineResource({
  name: 'Book',
  path: '/books',
  description: 'A book on sale.',
  schema: Type.Object({
    id: Type.Readonly(Type.Integer({ description: 'Identifier.' })),
    isbn: Type.String({ pattern: '^97[89][0-9]{10}$', description: 'ISBN-13, digits only.' }),
    title: Type.String({ minLength: 1, maxLength: 255, description: 'Title.' }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()], { description: 'Blurb.' })),
    author: Type.String({ description: 'IRI of the Author.' }),
    publicationDate: Type.String({ format: 'date', description: 'First publication date.' }),
    price: Type.Number({ minimum: 0, maximum: 100_000, description: 'Price in euros.' }),
  }),
  relations: { author: 'Author' },
  operations: {
    getCollection: true,
    get: true,
    post: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may add books.' },
    put: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may edit books.' },
    patch: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may edit books.' },
    delete: { security: 'ROLE_ADMIN', securityMessage: 'Only administrators may remove books.' },
  },
  filters: [
    searchFilter({ title: 'ipartial', isbn: 'exact', author: 'exact', description: 'iword_start' }),
    rangeFilter(['price']),
    dateFilter(['publicationDate']),
    existsFilter(['description']),
    orderFilter(['id', 'title', 'publicationDate', 'price']),
  ],
  validate: (book) => (typeof book.isbn === 'string' && !isValidIsbn13(book.isbn) ? [{ propertyPath: 'isbn', message: 'This value is not a valid ISBN-13.', code: 'isbn' }] : []),
});
