import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { User } from './user.ts';
import type { Voter } from './voter.ts';

const USERS: readonly (User | null)[] = [null, { id: 1, identifier: 'a@example.test', roles: ['ROLE_USER'] }, { id: 2, identifier: 'b@example.test', roles: ['ROLE_ADMIN'] }];
const SUBJECTS: readonly unknown[] = [null, undefined, 42, 'text', { author: '/users/1' }, Object.freeze({ nested: Object.freeze({ a: 1 }) })];

/**
 * The Voter contract (see voter.ts): abstains on attributes it does not decide, never throws,
 * does not mutate its inputs, and answers the same input the same way.
 * `decides` lists attributes this voter must not abstain on.
 */
export function voterContract(voter: Voter, decides: readonly string[]): void {
  describe(`Voter contract: ${voter.name}`, () => {
    test('abstains on an attribute it does not understand, for any user and subject', async () => {
      for (const user of USERS) for (const subject of SUBJECTS) assert.equal(await voter.vote(user, 'SOMETHING_ELSE_ENTIRELY', subject), 'abstain');
    });

    test('answers grant or deny on the attributes it decides, the same way twice, without mutating inputs', async () => {
      for (const attribute of decides) {
        for (const user of USERS) {
          for (const subject of SUBJECTS) {
            const before = JSON.stringify([user, subject]);
            const first = await voter.vote(user, attribute, subject);
            assert.ok(first === 'grant' || first === 'deny', `${attribute} gave ${first}`);
            assert.equal(await voter.vote(user, attribute, subject), first);
            assert.equal(JSON.stringify([user, subject]), before);
          }
        }
      }
    });
  });
}
