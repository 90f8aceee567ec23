import assert from 'node:assert/strict';
import { BackgroundWork } from '../../src/application/shared/background-work';
import { RegisterMember } from '../../src/application/users/register-member';
import { SendVerificationCode } from '../../src/application/users/send-verification-code';
import { MAX_TRIES } from '../../src/application/users/verification-codes';
import { VerifyEmail } from '../../src/application/users/verify-email';
import { isDomainError } from '../../src/domain/errors';
import { accountTestbed, type AccountTestbed } from '../support/account-container';
import { codeIn } from '../support/fake-accounts';

const reasonOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    if (isDomainError(e)) return e.reason;
    throw e;
  }
  return 'none';
};

/** A six-digit code that is not `code`. */
const other = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('members e-mail: RegisterMember, VerifyEmail, SendVerificationCode', () => {
  let t: AccountTestbed;
  let register: RegisterMember;
  let verify: VerifyEmail;
  let resend: SendVerificationCode;
  let background: BackgroundWork;
  const reg = (username: string, email?: string) =>
    register.execute({ loginType: 'web', username, password: 'member-pass-1', ...(email === undefined ? {} : { email }) });

  beforeEach(() => {
    t = accountTestbed();
    [register, verify, resend, background] = [
      t.c.get(RegisterMember),
      t.c.get(VerifyEmail),
      t.c.get(SendVerificationCode),
      t.c.get(BackgroundWork),
    ];
  });

  it('registers without an address (none sent) and with one (unverified, a six-digit code mailed, only its hash stored)', async () => {
    assert.deepEqual(await reg('nomail'), { userId: '1', username: 'nomail', email: null, emailVerified: false });
    assert.equal(t.mailer.sent.length, 0);
    const out = await reg('ann', 'Ann@Example.org');
    assert.deepEqual(out, { userId: '2', username: 'ann', email: 'Ann@Example.org', emailVerified: false });
    assert.equal((await t.accounts.findById('2'))?.email, 'Ann@Example.org');
    const [message] = t.mailer.to('ann@example.org');
    assert.match(message?.subject ?? '', /verification code/);
    assert.match(message?.text ?? '', /verification code is \d{6}\./);
    const code = codeIn(message);
    const [write, ...more] = t.kvCalls;
    assert.equal(more.length, 0);
    assert.match(write ?? '', /^\["set","everify:web:[A-Za-z0-9_-]{43}",/, 'the key names a digest of the folded address');
    assert.ok(!(write ?? '').includes(code), 'the code is not stored, only its hash');
  });

  it('an address already in use, in any case, is 409 email-taken and creates nothing', async () => {
    await reg('ann', 'ann@example.org');
    assert.equal(await reasonOf(reg('bob', ' ANN@example.ORG')), 'email-taken');
    assert.equal(await t.accounts.findByUsername('bob'), null);
    assert.equal(t.mailer.sent.length, 1);
  });

  it('without a mail server: 503 mail-unavailable before anything is created; svc.web.require-email refuses no address', async () => {
    t.mailer.available = false;
    assert.equal(await reasonOf(reg('ann', 'ann@example.org')), 'mail-unavailable');
    assert.equal(await t.accounts.findByUsername('ann'), null);
    assert.equal(await reasonOf(resend.execute({ loginType: 'web', email: 'x@example.org' })), 'mail-unavailable');
    const strict = accountTestbed({ requireEmail: true });
    const err = await strict.c
      .get(RegisterMember)
      .execute({ loginType: 'web', username: 'ann', password: 'member-pass-1' })
      .catch((e: unknown) => e);
    assert.ok(isDomainError(err) && err.reason === 'validation-failed');
    assert.deepEqual(err.extras.errors, [{ pointer: '/email', detail: 'is required (svc.web.require-email)' }]);
  });

  it('the right code verifies once (any case of the address); then it is spent', async () => {
    await reg('ann', 'ann@example.org');
    const code = codeIn(t.mailer.sent[0]);
    assert.deepEqual(await verify.execute({ loginType: 'web', email: 'ANN@example.org', code }), {
      email: 'ann@example.org',
      verified: true,
    });
    assert.equal((await t.accounts.findById('1'))?.emailVerified, true);
    assert.equal(await reasonOf(verify.execute({ loginType: 'web', email: 'ann@example.org', code })), 'verification-code-invalid');
  });

  it(`${MAX_TRIES} wrong codes spend it: the right one is refused after them; fewer leave it valid`, async () => {
    await reg('ann', 'ann@example.org');
    const code = codeIn(t.mailer.sent[0]);
    for (let i = 0; i < MAX_TRIES - 1; i++) {
      assert.equal(
        await reasonOf(verify.execute({ loginType: 'web', email: 'ann@example.org', code: other(code) })),
        'verification-code-invalid',
      );
    }
    assert.equal((await verify.execute({ loginType: 'web', email: 'ann@example.org', code })).verified, true, `after ${MAX_TRIES - 1}`);

    await reg('bob', 'bob@example.org');
    const bobs = codeIn(t.mailer.to('bob@example.org')[0]);
    for (let i = 0; i < MAX_TRIES; i++) await reasonOf(verify.execute({ loginType: 'web', email: 'bob@example.org', code: other(bobs) }));
    assert.equal(await reasonOf(verify.execute({ loginType: 'web', email: 'bob@example.org', code: bobs })), 'verification-code-invalid');
    assert.equal((await t.accounts.findById('2'))?.emailVerified, false);
  });

  it('concurrent guesses are all counted: of 20 at once, with the right one among them, at most 5 are weighed', async () => {
    await reg('ann', 'ann@example.org');
    const code = codeIn(t.mailer.sent[0]);
    const guesses = Array.from({ length: 20 }, (_, i) => (i === 19 ? code : other(String(Number(code) + i))));
    const results = await Promise.all(
      guesses.map((g) => reasonOf(verify.execute({ loginType: 'web', email: 'ann@example.org', code: g }))),
    );
    assert.equal(results[19], 'verification-code-invalid', 'the right code came sixth or later: refused');
    assert.equal((await t.accounts.findById('1'))?.emailVerified, false);
  });

  it('an expired code is refused; an unknown address is the same answer', async () => {
    await reg('ann', 'ann@example.org');
    const code = codeIn(t.mailer.sent[0]);
    t.clock.advance(900_000);
    assert.equal(await reasonOf(verify.execute({ loginType: 'web', email: 'ann@example.org', code })), 'verification-code-invalid');
    assert.equal(await reasonOf(verify.execute({ loginType: 'web', email: 'nobody@example.org', code })), 'verification-code-invalid');
  });

  it('send again: a new code replaces the old; unknown or verified addresses get nothing; it answers before the lookup', async () => {
    await reg('ann', 'ann@example.org');
    const first = codeIn(t.mailer.sent[0]);
    await resend.execute({ loginType: 'web', email: 'Ann@Example.org' });
    assert.equal(t.mailer.sent.length, 1, 'nothing sent before the answer');
    await background.idle();
    const second = codeIn(t.mailer.sent[1]);
    if (second !== first) {
      assert.equal(
        await reasonOf(verify.execute({ loginType: 'web', email: 'ann@example.org', code: first })),
        'verification-code-invalid',
      );
    }
    assert.equal((await verify.execute({ loginType: 'web', email: 'ann@example.org', code: second })).verified, true);
    await resend.execute({ loginType: 'web', email: 'ann@example.org' });
    await resend.execute({ loginType: 'web', email: 'nobody@example.org' });
    await background.idle();
    assert.equal(t.mailer.sent.length, 2, 'verified and unknown addresses are sent nothing');
  });

  it('a failure after the answer is logged, never thrown', async () => {
    await reg('ann', 'ann@example.org');
    t.accounts.findByEmail = async () => {
      throw new Error('directory down');
    };
    await resend.execute({ loginType: 'web', email: 'ann@example.org' });
    await background.idle();
    assert.deepEqual(t.logged.at(-1), {
      level: 'error',
      obj: { what: 'verify-email-send', err: 'directory down' },
      msg: 'background work failed',
    });
  });
});
