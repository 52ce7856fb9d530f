import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subscribe, type VoteEvent } from '../observe/channels.ts';
import { AccessDecisionManager } from './access-decision-manager.ts';
import { AuthenticatedVoter } from './authenticated-voter.ts';
import { RoleHierarchy } from './role-hierarchy.ts';
import { RoleVoter } from './role-voter.ts';
import type { User } from './user.ts';
import type { Vote, Voter } from './voter.ts';

const user: User = { id: 1, identifier: 'u@example.test', roles: ['ROLE_USER'] };
const admin: User = { id: 2, identifier: 'a@example.test', roles: ['ROLE_ADMIN'] };
const fixed = (name: string, vote: Vote): Voter => ({ name, vote: () => vote });

test('role hierarchy: ROLE_ADMIN includes ROLE_USER, transitively, and cycles end', () => {
  assert.deepEqual(new RoleHierarchy().reachableRoles(['ROLE_ADMIN']).sort(), ['ROLE_ADMIN', 'ROLE_USER']);
  assert.deepEqual(new RoleHierarchy().reachableRoles(['ROLE_USER']), ['ROLE_USER']);
  const h = new RoleHierarchy({ ROLE_SUPER: ['ROLE_ADMIN'], ROLE_ADMIN: ['ROLE_USER', 'ROLE_SUPER'] });
  assert.deepEqual(h.reachableRoles(['ROLE_SUPER']).sort(), ['ROLE_ADMIN', 'ROLE_SUPER', 'ROLE_USER']);
});

test('role voter: abstains outside ROLE_*, denies anonymous, follows the hierarchy', () => {
  const v = new RoleVoter();
  assert.equal(v.vote(admin, 'ROLE_USER'), 'grant');
  assert.equal(v.vote(admin, 'ROLE_ADMIN'), 'grant');
  assert.equal(v.vote(user, 'ROLE_ADMIN'), 'deny');
  assert.equal(v.vote(null, 'ROLE_USER'), 'deny');
  assert.equal(v.vote(user, 'IS_AUTHENTICATED'), 'abstain');
});

test('authenticated voter', () => {
  const v = new AuthenticatedVoter();
  assert.deepEqual(
    ['PUBLIC_ACCESS', 'IS_AUTHENTICATED', 'IS_AUTHENTICATED_FULLY', 'IS_ANONYMOUS', 'ROLE_USER'].map((a) => [v.vote(null, a), v.vote(user, a)]),
    [['grant', 'grant'], ['deny', 'grant'], ['deny', 'grant'], ['grant', 'deny'], ['abstain', 'abstain']],
  );
});

test('strategies: affirmative (default), consensus, unanimous; all abstain denies', async () => {
  const votes = [fixed('a', 'grant'), fixed('b', 'deny'), fixed('c', 'deny')];
  assert.equal(await new AccessDecisionManager(votes).decide(user, 'X', null), true);
  assert.equal(await new AccessDecisionManager(votes, 'consensus').decide(user, 'X', null), false);
  assert.equal(await new AccessDecisionManager([fixed('a', 'grant'), fixed('b', 'grant'), fixed('c', 'deny')], 'consensus').decide(user, 'X', null), true);
  assert.equal(await new AccessDecisionManager(votes, 'unanimous').decide(user, 'X', null), false);
  assert.equal(await new AccessDecisionManager([fixed('a', 'grant'), fixed('b', 'abstain')], 'unanimous').decide(user, 'X', null), true);
  for (const s of ['affirmative', 'consensus', 'unanimous'] as const) {
    assert.equal(await new AccessDecisionManager([fixed('a', 'abstain')], s).decide(user, 'X', null), false, s);
  }
});

test('user-defined voters see the subject; every vote is published with voter, attribute, subject and vote', async () => {
  const review = { id: 5, author: 1 };
  const owner: Voter = { name: 'review_owner', vote: async (u, attribute, subject) => (attribute !== 'REVIEW_EDIT' ? 'abstain' : u !== null && (subject as typeof review).author === u.id ? 'grant' : 'deny') };
  const manager = AccessDecisionManager.withDefaults({ voters: [owner] });
  const events: VoteEvent[] = [];
  const off = subscribe('vote', (e) => events.push(e));
  try {
    assert.equal(await manager.decide(user, 'REVIEW_EDIT', review), true);
    assert.equal(await manager.decide(admin, 'REVIEW_EDIT', review), false);
  } finally {
    off();
  }
  assert.deepEqual(
    events.map((e) => [e.voter, e.attribute, e.subject, e.vote]),
    [
      ['role', 'REVIEW_EDIT', review, 'abstain'],
      ['authenticated', 'REVIEW_EDIT', review, 'abstain'],
      ['review_owner', 'REVIEW_EDIT', review, 'grant'],
      ['role', 'REVIEW_EDIT', review, 'abstain'],
      ['authenticated', 'REVIEW_EDIT', review, 'abstain'],
      ['review_owner', 'REVIEW_EDIT', review, 'deny'],
    ],
  );
});
