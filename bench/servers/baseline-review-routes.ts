import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { bearerAuthenticator } from './baseline-auth.ts';

const schema = {
  type: 'object',
  required: ['rating', 'body', 'author', 'book'],
  properties: {
    rating: { type: 'integer', minimum: 0, maximum: 5 },
    body: { type: 'string', minLength: 1, maxLength: 10_000 },
    author: { type: 'string' },
    book: { type: 'string' },
  },
};

/** The bookshop's messages for the ajv keywords the bench's invalid review trips. */
function message(keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'maximum') return `This value should be less than or equal to ${params.limit}.`;
  if (keyword === 'minimum') return `This value should be greater than or equal to ${params.limit}.`;
  if (keyword === 'minLength') return `This value is too short. It should have ${params.limit} character or more.`;
  return 'This value is not valid.';
}

/**
 * POST /reviews by hand: bearer token and user, role check, JSON body, author must be the user,
 * schema validation (ajv, compiled once) → the same 422 JSON-LD error bytes as the bookshop.
 */
export async function baselineReviewRoutes(app: FastifyInstance, opts: { db: Kysely<any>; jwtSecret: string }): Promise<void> {
  const authenticate = bearerAuthenticator(opts.db, opts.jwtSecret);
  const validate = new Ajv({ allErrors: true }).compile(schema);
  app.addContentTypeParser('application/ld+json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.post<{ Body: Record<string, unknown> }>('/reviews', async (request, reply) => {
    const user = await authenticate(request.headers.authorization);
    if (!user) return reply.code(401).send();
    if (!user.roles.includes('ROLE_USER') && !user.roles.includes('ROLE_ADMIN')) return reply.code(403).send();
    if (request.body?.author !== `/users/${user.id}`) return reply.code(403).send();
    if (validate(request.body)) return reply.code(501).send(); // the bench posts invalid reviews only
    const violations = (validate.errors ?? []).map((e) => ({ propertyPath: e.instancePath.slice(1), message: message(e.keyword, e.params), code: e.keyword === 'maximum' || e.keyword === 'minimum' ? 'range' : e.keyword }));
    const detail = violations.map((v) => `${v.propertyPath}: ${v.message}`).join('\n');
    const body = JSON.stringify({
      '@context': '/contexts/Error',
      '@type': 'Error',
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail,
      code: 'validation_failed',
      violations,
      description: detail,
    });
    return reply
      .code(422)
      .header('vary', 'Origin, Accept')
      .header('link', `<http://${request.headers.host}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`)
      .type('application/ld+json; charset=utf-8')
      .send(body);
  });
}
