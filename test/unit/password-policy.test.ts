import assert from 'node:assert/strict';
import bcrypt from 'bcryptjs';
import { PackagedCommonPasswords } from '../../src/adapters/passwords/common-password-list';
import type { AccountStore } from '../../src/application/ports/account-store';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import type { AccountSettings } from '../../src/application/users/account-settings';
import { CheckPasswordPolicy, type PasswordPolicyInput } from '../../src/application/users/check-password-policy';
import { DomainError, type FieldError } from '../../src/domain/errors';
import { passwordPolicyProblems } from '../../src/domain/password';

const STRONG = 'violet-harbour-engine-42';

describe('password policy (ASVS 5.0 6.2)', () => {
  describe('passwordPolicyProblems: length, UTF-8 bytes, username', () => {
    it('accepts 8 and 64 characters, refuses 7 and 65, counting characters (code points), not UTF-16 units', () => {
      assert.deepEqual(passwordPolicyProblems('abcdefgh', 'someone'), []);
      assert.deepEqual(passwordPolicyProblems('x'.repeat(64), 'someone'), []);
      assert.deepEqual(passwordPolicyProblems('abcdefg', 'someone'), ['must be at least 8 characters']);
      assert.deepEqual(passwordPolicyProblems('\u{1F600}'.repeat(7), 'someone'), ['must be at least 8 characters']);
      assert.deepEqual(passwordPolicyProblems('x'.repeat(65), 'someone'), ['must be at most 64 characters']);
    });

    it('refuses more than 72 UTF-8 bytes, and reports it beside the character limit when both are broken', () => {
      assert.deepEqual(passwordPolicyProblems('é'.repeat(36), 'someone'), []);
      assert.deepEqual(passwordPolicyProblems('é'.repeat(37), 'someone'), ['must be at most 72 bytes in UTF-8 (BCrypt reads no further)']);
      assert.deepEqual(passwordPolicyProblems('é'.repeat(65), 'someone'), [
        'must be at most 64 characters',
        'must be at most 72 bytes in UTF-8 (BCrypt reads no further)',
      ]);
    });

    it('refuses the username, as typed or folded (case, NFKC) on either side; every broken rule at once', () => {
      assert.deepEqual(passwordPolicyProblems('Bob.Builder', 'Bob.Builder'), ['must not be the username']);
      assert.deepEqual(passwordPolicyProblems('bob.builder', 'Bob.Builder'), ['must not be the username']);
      assert.deepEqual(passwordPolicyProblems('ＢＯＢ.ＢＵＩＬＤＥＲ', 'bob.builder'), ['must not be the username']);
      assert.deepEqual(passwordPolicyProblems('bob', 'Bob'), ['must be at least 8 characters', 'must not be the username']);
      assert.deepEqual(passwordPolicyProblems('bob.builder!', 'Bob.Builder'), []);
    });
  });

  describe('CheckPasswordPolicy', () => {
    // Cost 4: the real BCrypt, fast enough for a unit test.
    const hash = (pw: string): string => bcrypt.hashSync(pw, 4);
    let verifies: number;
    let historyCalls: Array<[string, number]>;
    const hasher: PasswordHasher = {
      hash: (pw, cost) => bcrypt.hash(pw, cost),
      verify: async (pw, h) => {
        verifies++;
        return bcrypt.compare(pw, h);
      },
    };
    /** An account store that knows one history, newest first (only `passwordHistory` is used by the policy). */
    const storeWith = (history: readonly string[]): AccountStore =>
      ({
        passwordHistory: async (userId: string, limit: number) => {
          historyCalls.push([userId, limit]);
          return history.slice(0, limit);
        },
      }) as Partial<AccountStore> as AccountStore;
    const policy = (history: number, store = storeWith([])): CheckPasswordPolicy =>
      new CheckPasswordPolicy(new PackagedCommonPasswords(), hasher, { passwordHistory: history } as AccountSettings, store);

    async function refusal(p: CheckPasswordPolicy, input: PasswordPolicyInput): Promise<FieldError[]> {
      const err = await p.execute(input).then(
        () => assert.fail('accepted'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof DomainError && err.reason === 'password-policy', String(err));
      return [...(err.extras.errors ?? [])];
    }

    beforeEach(() => {
      verifies = 0;
      historyCalls = [];
    });

    it('accepts a long uncommon password, without reading a history at registration (no userId)', async () => {
      await policy(5).execute({ password: STRONG, username: 'newcomer', pointer: '/password' });
      assert.deepEqual([verifies, historyCalls], [0, []]);
    });

    it('refuses a common or breached password, whatever its case, under the caller-named pointer', async () => {
      for (const password of ['password', 'Qwertyuiop', 'ILOVEYOU', '123456789']) {
        assert.deepEqual(await refusal(policy(5), { password, username: 'newcomer', pointer: '/newPassword' }), [
          { pointer: '/newPassword', detail: 'must not be a common or breached password' },
        ]);
      }
    });

    it('lists every rule broken (username and common list together) and runs no BCrypt then', async () => {
      const p = policy(5, storeWith([hash('password1')]));
      const errors = await refusal(p, { password: 'Password1', username: 'password1', pointer: '/password', userId: '7' });
      assert.deepEqual(
        errors.map((e) => e.detail),
        ['must not be the username', 'must not be a common or breached password'],
      );
      assert.deepEqual([verifies, historyCalls], [0, []]);
    });

    it('refuses the current password and the last N-1 earlier ones, and accepts the one before them', async () => {
      const current = hash('current-secret-0');
      const store = storeWith(['earlier-secret-1', 'earlier-secret-2', 'earlier-secret-3', 'earlier-secret-4'].map(hash));
      const input = (password: string): PasswordPolicyInput => ({
        password,
        username: 'ann',
        pointer: '/newPassword',
        userId: '42',
        currentHash: current,
      });
      const detail = 'must not be one of the last 3 passwords of the account';
      assert.deepEqual(await refusal(policy(3, store), input('current-secret-0')), [{ pointer: '/newPassword', detail }]);
      assert.deepEqual(historyCalls, [], 'the current hash matched first: no history read');
      assert.deepEqual(await refusal(policy(3, store), input('earlier-secret-2')), [{ pointer: '/newPassword', detail }]);
      assert.deepEqual(historyCalls, [['42', 2]]);
      await policy(3, store).execute(input('earlier-secret-3'));
      await policy(3, store).execute(input(STRONG));
    });

    it('a history of 1 is the current password only; 0 checks nothing', async () => {
      const current = hash('current-secret-0');
      const store = storeWith([hash('earlier-secret-1')]);
      const input = (password: string): PasswordPolicyInput => ({
        password,
        username: 'ann',
        pointer: '/password',
        userId: '42',
        currentHash: current,
      });
      assert.deepEqual(await refusal(policy(1, store), input('current-secret-0')), [
        { pointer: '/password', detail: 'must not be the current password' },
      ]);
      await policy(1, store).execute(input('earlier-secret-1'));
      await policy(0, store).execute(input('current-secret-0'));
      assert.deepEqual(historyCalls, []);
    });
  });
});
