import { Author } from './author.ts';
import { Book } from './book.ts';
import { Review } from './review.ts';
import { User } from './user.ts';

export { Author, Book, Review, User };

/** Every bookshop resource, in entrypoint order. */
export const resources = [Book, Author, Review, User];
