import { hash } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NodeSqliteDialect } from 'trellis';
import { bearerAuthenticator } from './baseline-auth.ts';
import { baselineReviewRoutes } from './baseline-review-routes.ts';

interface BookRow {
  id: number;
  isbn: string;
  title: string;
  description: string | null;
  author_id: number;
  publication_date: string;
  price: number;
}

const PER_PAGE = 30;
const COLUMNS = ['id', 'isbn', 'title', 'description', 'author_id', 'publication_date', 'price'] as const;

/** The bookshop's Hydra search template for books: a hand-written service would keep it as a constant. */
const SEARCH = JSON.stringify({
  '@type': 'IriTemplate',
  template:
    '/books{?title,isbn,author,description,price[lt],price[gt],price[lte],price[gte],price[between],publicationDate[after],publicationDate[before],publicationDate[strictly_after],publicationDate[strictly_before],exists[description],order[id],order[title],order[publicationDate],order[price]}',
  variableRepresentation: 'BasicRepresentation',
  mapping: [
    ['title', 'title'], ['isbn', 'isbn'], ['author', 'author'], ['description', 'description'],
    ['price[lt]', 'price'], ['price[gt]', 'price'], ['price[lte]', 'price'], ['price[gte]', 'price'], ['price[between]', 'price'],
    ['publicationDate[after]', 'publicationDate'], ['publicationDate[before]', 'publicationDate'], ['publicationDate[strictly_after]', 'publicationDate'], ['publicationDate[strictly_before]', 'publicationDate'],
    ['exists[description]', 'description'], ['order[id]', 'id'], ['order[title]', 'title'], ['order[publicationDate]', 'publicationDate'], ['order[price]', 'price'],
  ].map(([variable, property]) => ({ '@type': 'IriTemplateMapping', variable, property, required: false })),
});

const book = (r: BookRow) => ({
  '@id': `/books/${r.id}`,
  '@type': 'Book',
  id: r.id,
  isbn: r.isbn,
  title: r.title,
  description: r.description,
  author: `/authors/${r.author_id}`,
  publicationDate: r.publication_date,
  price: r.price,
});

/** The same headers the bookshop sends in production: strong ETag over the bytes, Hydra docs link. */
function sendJsonLd(request: FastifyRequest, reply: FastifyReply, body: string) {
  return reply
    .header('vary', 'Origin, Accept')
    .header('etag', `"${hash('sha1', body, 'base64url')}"`)
    .header('link', `<http://${request.headers.host}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`)
    .type('application/ld+json; charset=utf-8')
    .send(body);
}

/** The query string with `page` set to n, keeping the client's parameter order (as the bookshop does). */
function withPage(search: string, n: number): string {
  const parts = search.split('&').filter(Boolean);
  const i = parts.findIndex((p) => p.startsWith('page='));
  if (i < 0) parts.push(`page=${n}`);
  else parts[i] = `page=${n}`;
  return `/books?${parts.join('&')}`;
}

/**
 * GET /books/:id, GET /books?page=&title= and POST /reviews written by hand: Fastify routes, Kysely queries on
 * the bookshop's SQLite file (Kysely has no node:sqlite dialect of its own, so it uses Trellis's
 * 100-line adapter), JSON-LD built with template objects. No pipeline, hooks or negotiation.
 */
export async function baselineBookRoutes(app: FastifyInstance, opts: { databaseUrl: string; jwtSecret: string }): Promise<void> {
  const sqlite = new DatabaseSync(opts.databaseUrl.replace(/^sqlite:/, ''));
  sqlite.exec('PRAGMA case_sensitive_like = ON');
  const db = new Kysely<{ books: BookRow }>({ dialect: new NodeSqliteDialect(sqlite) });
  app.addHook('onClose', () => db.destroy());
  // The bookshop authenticates any bearer token it is sent, on every route; so does the baseline.
  const authenticate = bearerAuthenticator(db as Kysely<any>, opts.jwtSecret);
  await baselineReviewRoutes(app, { db: db as Kysely<any>, jwtSecret: opts.jwtSecret });

  app.get<{ Params: { id: string } }>('/books/:id', async (request, reply) => {
    if (request.headers.authorization && !(await authenticate(request.headers.authorization))) return reply.code(401).send();
    const id = Number(request.params.id);
    const row = Number.isInteger(id) ? await db.selectFrom('books').select(COLUMNS).where('id', '=', id).executeTakeFirst() : undefined;
    if (!row) return reply.code(404).send();
    return sendJsonLd(request, reply, JSON.stringify({ '@context': '/contexts/Book', ...book(row) }));
  });

  app.get<{ Querystring: { page?: string; title?: string } }>('/books', async (request, reply) => {
    const page = Math.max(1, Number(request.query.page ?? 1) || 1);
    let base = db.selectFrom('books');
    if (request.query.title) {
      const pattern = `%${request.query.title.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where(sql<boolean>`lower(title) like ${pattern} escape '\\'`);
    }
    const [rows, count] = await Promise.all([
      base.select(COLUMNS).orderBy('id').limit(PER_PAGE).offset((page - 1) * PER_PAGE).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const total = Number(count.n);
    const last = Math.max(1, Math.ceil(total / PER_PAGE));
    const search = request.url.slice(request.url.indexOf('?') + 1);
    const view: Record<string, string> = { '@id': withPage(search, page), '@type': 'PartialCollectionView', first: withPage(search, 1), last: withPage(search, last) };
    if (page > 1) view.previous = withPage(search, page - 1);
    if (page < last) view.next = withPage(search, page + 1);
    const head = JSON.stringify({ '@context': '/contexts/Book', '@id': '/books', '@type': 'Collection', totalItems: total, member: rows.map(book), view });
    return sendJsonLd(request, reply, `${head.slice(0, -1)},"search":${SEARCH}}`);
  });
}
