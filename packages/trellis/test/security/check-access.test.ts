/**
 * The per-operation checks (API Platform's `security` and `securityPostDenormalize`) through
 * checkAccess: directly with fake old and new objects, and through a small reviews route that
 * does what the resource pipeline does (load, check, deserialise, check again, write).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { subscribe, type AccessDecisionEvent } from '../../src/observe/channels.ts';
import { HttpError } from '../../src/kernel/http-error.ts';
import { checkAccess } from '../../src/security/check-access.ts';
import type { SecurityRule } from '../../src/security/security-rule.ts';
import type { User } from '../../src/security/user.ts';
import type { Voter } from '../../src/security/voter.ts';
import { PASSWORDS, login, securedApp } from './security-fixtures.ts';

interface Review {
  id: number;
  body: string;
  author: number;
}

const alice: User = { id: 1, identifier: 'alice@example.test', roles: ['ROLE_USER'] };
const bob: User = { id: 2, identifier: 'bob@example.test', roles: ['ROLE_USER'] };
const admin: User = { id: 3, identifier: 'admin@example.test', roles: ['ROLE_ADMIN'] };

/** The bookshop's review rules: edit your own (before), and keep yourself the author (after). */
const ownReview: SecurityRule = async function ownReview({ user, object, isGranted }) {
  return (await isGranted('ROLE_ADMIN')) || (user !== null && (object as Review).author === user.id);
};
const stillOwnReview: SecurityRule = async function stillOwnReview({ user, object, previousObject, isGranted }) {
  return (await isGranted('ROLE_ADMIN')) || (user !== null && (previousObject as Review).author === user.id && (object as Review).author === user.id);
};

const requestAs = (user: User | null) => ({ user, server: undefined }) as unknown as FastifyRequest;

describe('checkAccess directly', () => {
  test('before deserialisation: the rule sees the loaded object', async () => {
    const review: Review = { id: 10, body: 'Great', author: 1 };
    const check = { rule: ownReview, message: 'Only the author may edit a review.', stage: 'security', object: review, previousObject: null } as const;
    await checkAccess(requestAs(alice), check);
    await checkAccess(requestAs(admin), check);
    await assert.rejects(checkAccess(requestAs(bob), check), { status: 403, code: 'access_denied', message: 'Only the author may edit a review.' });
    await assert.rejects(checkAccess(requestAs(null), check), (e: unknown) => {
      assert.ok(e instanceof HttpError);
      assert.equal(e.status, 401);
      assert.equal(e.message, 'Full authentication is required to access this resource.');
      assert.equal(e.headers['www-authenticate'], 'Bearer realm="api"');
      return true;
    });
  });

  test('after deserialisation: the rule sees the new object and the previous one', async () => {
    const previous: Review = { id: 10, body: 'Great', author: 1 };
    const check = (object: Review) => ({ rule: stillOwnReview, message: 'You cannot give your review to someone else.', stage: 'post_denormalize', object, previousObject: previous }) as const;
    await checkAccess(requestAs(alice), check({ ...previous, body: 'Even better' }));
    await assert.rejects(checkAccess(requestAs(alice), check({ ...previous, author: 2 })), { status: 403, message: 'You cannot give your review to someone else.' });
    await checkAccess(requestAs(admin), check({ ...previous, author: 2 }));
  });

  test('string rules go through the voters with the role hierarchy; the default message is "Access Denied."', async () => {
    const check = { rule: 'ROLE_USER', stage: 'security', object: null, previousObject: null } as const;
    await checkAccess(requestAs(admin), check);
    await checkAccess(requestAs(alice), check);
    await assert.rejects(checkAccess(requestAs(alice), { ...check, rule: 'ROLE_ADMIN' }), { status: 403, message: 'Access Denied.' });
    await checkAccess(requestAs(null), { ...check, rule: 'PUBLIC_ACCESS' });
    await assert.rejects(checkAccess(requestAs(null), { ...check, rule: 'IS_AUTHENTICATED' }), { status: 401 });
  });

  test('each decision is published with its stage, and the message when denied', async () => {
    const events: AccessDecisionEvent[] = [];
    const off = subscribe('accessDecision', (e) => events.push(e));
    try {
      await checkAccess(requestAs(alice), { rule: ownReview, stage: 'security', object: { author: 1 }, previousObject: null });
      await checkAccess(requestAs(alice), { rule: stillOwnReview, message: 'Nope.', stage: 'post_denormalize', object: { author: 2 }, previousObject: { author: 1 } }).catch(() => undefined);
    } finally {
      off();
    }
    assert.deepEqual(events.map((e) => [e.attribute, e.stage, e.granted, e.message]), [['ownReview', 'security', true, undefined], ['stillOwnReview', 'post_denormalize', false, 'Nope.']]);
  });
});

describe('checkAccess through a reviews route', () => {
  let app: FastifyInstance;
  const reviews = new Map<number, Review>();
  const owner: Voter = {
    name: 'review_owner',
    vote: (user, attribute, subject) => (attribute !== 'REVIEW_EDIT' ? 'abstain' : user !== null && (subject as Review).author === user.id ? 'grant' : 'deny'),
  };

  let nextId = 3;
  const reviewRoutes = (instance: FastifyInstance) => {
    instance.post('/reviews', async (request, reply) => {
      await checkAccess(request, { rule: 'ROLE_USER', stage: 'security', object: null, previousObject: null });
      const review: Review = { ...(request.body as Omit<Review, 'id'>), id: nextId };
      await checkAccess(request, {
        rule: ({ user, object }) => user !== null && (object as Review).author === user.id,
        message: 'A review must be posted under your own name.',
        stage: 'post_denormalize',
        object: review,
        previousObject: null,
      });
      reviews.set(nextId++, review);
      return reply.code(201).send(review);
    });
    instance.put('/reviews/:id', async (request) => {
      const loaded = reviews.get(Number((request.params as { id: string }).id));
      if (!loaded) throw new HttpError(404, 'not_found', 'Not Found');
      await checkAccess(request, {
        rule: async ({ isGranted }) => (await isGranted('ROLE_ADMIN')) || (await isGranted('REVIEW_EDIT')),
        message: 'Only the author may edit a review.',
        stage: 'security',
        object: loaded,
        previousObject: null,
      });
      const previous = structuredClone(loaded);
      const updated: Review = { ...loaded, ...(request.body as Partial<Review>), id: loaded.id };
      await checkAccess(request, {
        rule: async ({ object, previousObject, isGranted }) => (await isGranted('ROLE_ADMIN')) || (object as Review).author === (previousObject as Review).author,
        message: 'A review cannot be given to another user.',
        stage: 'post_denormalize',
        object: updated,
        previousObject: previous,
      });
      reviews.set(loaded.id, updated);
      return updated;
    });
  };

  before(async () => {
    app = await securedApp({}, { voters: [owner] }, reviewRoutes);
    reviews.set(1, { id: 1, body: 'Alice wrote this', author: 1 });
    reviews.set(2, { id: 2, body: 'Bob wrote this', author: 2 });
  });
  after(() => app.close());

  test('POST a review as ROLE_USER, fail to edit someone else\'s (before), fail to re-assign your own (after), 401 without a token', async () => {
    const token = await login(app, 'alice@example.test', PASSWORDS.alice);
    const bearer = { authorization: `Bearer ${token}`, accept: 'application/problem+json' };
    const created = await app.inject({ method: 'POST', url: '/reviews', headers: bearer, payload: { body: 'Lovely', author: 1 } });
    assert.equal(created.statusCode, 201);
    assert.deepEqual(created.json(), { id: 3, body: 'Lovely', author: 1 });
    const impersonated = await app.inject({ method: 'POST', url: '/reviews', headers: bearer, payload: { body: 'Signed Bob', author: 2 } });
    assert.equal(impersonated.statusCode, 403);
    assert.equal(impersonated.json().detail, 'A review must be posted under your own name.');

    const others = await app.inject({ method: 'PUT', url: '/reviews/2', headers: bearer, payload: { body: 'Mine now', author: 1 } });
    assert.equal(others.statusCode, 403);
    assert.equal(others.json().detail, 'Only the author may edit a review.');
    assert.equal(reviews.get(2)!.body, 'Bob wrote this');

    const reassigned = await app.inject({ method: 'PUT', url: '/reviews/1', headers: bearer, payload: { body: 'Alice wrote this', author: 2 } });
    assert.equal(reassigned.statusCode, 403);
    assert.equal(reassigned.json().detail, 'A review cannot be given to another user.');
    assert.equal(reviews.get(1)!.author, 1);

    const edited = await app.inject({ method: 'PUT', url: '/reviews/1', headers: bearer, payload: { body: 'Edited', author: 1 } });
    assert.equal(edited.statusCode, 200);
    assert.equal(reviews.get(1)!.body, 'Edited');

    const anonymous = await app.inject({ method: 'POST', url: '/reviews', headers: { accept: 'application/problem+json' }, payload: { body: 'x', author: 1 } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="api"');
  });

  test('an admin may edit any review through the role hierarchy and the user voter', async () => {
    const token = await login(app, 'admin@example.test', PASSWORDS.admin);
    const r = await app.inject({ method: 'PUT', url: '/reviews/2', headers: { authorization: `Bearer ${token}` }, payload: { body: 'Moderated', author: 2 } });
    assert.equal(r.statusCode, 200);
  });

  test('checkAccess works in a bare Fastify app too, with the default voters', async () => {
    const bare = Fastify();
    bare.decorateRequest('user', null);
    bare.addHook('onRequest', async (request) => {
      if (request.headers['x-user'] === 'alice') request.user = alice;
    });
    bare.get('/secret', async (request) => {
      await checkAccess(request, { rule: 'ROLE_USER', stage: 'security', object: null, previousObject: null });
      return 'ok';
    });
    assert.equal((await bare.inject({ url: '/secret', headers: { 'x-user': 'alice' } })).body, 'ok');
    assert.equal((await bare.inject({ url: '/secret' })).statusCode, 401);
    await bare.close();
  });

});
