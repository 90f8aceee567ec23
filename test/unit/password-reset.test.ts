import assert from 'node:assert/strict';
import { SessionManagers } from '../../src/application/session/session-manager';
import { IssueTokens } from '../../src/application/auth/issue-tokens';
import { RefreshToken } from '../../src/application/auth/refresh-token';
import { BackgroundWork } from '../../src/application/shared/background-work';
import { RequestPasswordReset, resetLinkWith } from '../../src/application/users/request-password-reset';
import { ResetPassword } from '../../src/application/users/reset-password';
import { isDomainError } from '../../src/domain/errors';
import { accountTestbed, type AccountTestbed } from '../support/account-container';
import { tokenIn } from '../support/fake-accounts';

const reasonOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    if (isDomainError(e)) return e.reason;
    throw e;
  }
  return 'none';
};

describe('password reset: RequestPasswordReset, ResetPassword', () => {
  let t: AccountTestbed;
  let forgot: RequestPasswordReset;
  let reset: ResetPassword;
  let background: BackgroundWork;
  let annId: string;

  beforeEach(async () => {
    t = accountTestbed();
    [forgot, reset, background] = [t.c.get(RequestPasswordReset), t.c.get(ResetPassword), t.c.get(BackgroundWork)];
    const created = await t.accounts.create({
      username: 'ann',
      passwordHash: 'h:old-password-1',
      nickname: 'Ann',
      roles: [],
      email: 'Ann@Example.org',
    });
    assert.ok(created.ok);
    annId = created.user.id;
  });

  const ask = async (email: string) => {
    await forgot.execute({ loginType: 'web', email });
    await background.idle();
    return t.mailer.sent.at(-1);
  };
  const use = (token: string, newPassword = 'new-password-1') => reset.execute({ loginType: 'web', token, newPassword });

  it('the link is the reset page with token=... appended, after ? or & as the link needs', () => {
    assert.equal(resetLinkWith('https://app.example/reset', 'T'), 'https://app.example/reset?token=T');
    assert.equal(resetLinkWith('https://app.example/reset?lang=de', 'T'), 'https://app.example/reset?lang=de&token=T');
    assert.equal(resetLinkWith('https://app.example/#/reset?', 'T'), 'https://app.example/#/reset?token=T');
  });

  it('forgot answers before the lookup; a known address (any case) gets a link with a 256-bit token, an unknown one nothing', async () => {
    await forgot.execute({ loginType: 'web', email: 'ANN@example.org' });
    await forgot.execute({ loginType: 'web', email: 'nobody@example.org' });
    assert.equal(t.mailer.sent.length, 0, 'nothing happens before the answer');
    await background.idle();
    assert.equal(t.mailer.sent.length, 1);
    const [message] = t.mailer.sent;
    assert.equal(message?.to, 'Ann@Example.org');
    assert.match(message?.text ?? '', /https:\/\/app\.example\/reset\?token=[A-Za-z0-9_-]{43}\n/);
    const token = tokenIn(message);
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.ok(!t.kvCalls.some((call) => call.includes(token)), 'the token is stored only as its hash');
    assert.ok(t.kvCalls.some((call) => call.includes('pwlatest:web:1')));
  });

  it('reset sets the password (history kept, mark cleared), verifies the address, ends every session and refresh token', async () => {
    const managers = t.c.get(SessionManagers);
    const principal = { userId: annId, username: 'ann', roles: [], permissions: [] };
    const issued = await t.c.get(IssueTokens).execute({ loginType: 'web', principal, client: { ip: '10.0.0.1', userAgent: 'x' } });
    await managers.get('web').login(principal);
    const token = tokenIn(await ask('ann@example.org'));
    t.clock.advance(1000);
    assert.deepEqual(await use(token), { passwordReset: true, sessionsEnded: 2 });
    const ann = await t.accounts.findById(annId);
    assert.equal(ann?.passwordHash, 'h:new-password-1');
    assert.equal(ann?.mustChangePassword, false);
    assert.equal(ann?.emailVerified, true);
    assert.deepEqual(await t.accounts.passwordHistory(annId, 10), ['h:old-password-1']);
    assert.equal((await managers.get('web').listSessions(annId)).length, 0);
    const refresh = t.c
      .get(RefreshToken)
      .execute({ loginType: 'web', refreshToken: issued.refreshToken ?? '', client: { ip: '10.0.0.1', userAgent: 'x' } });
    assert.match(await reasonOf(refresh), /^refresh-token-(invalid|reused)$/);
    assert.equal(await reasonOf(use(token, 'another-pass-2')), 'reset-token-invalid', 'single use');
  });

  it('only the newest token is valid; unknown, malformed and expired tokens are refused alike', async () => {
    const first = tokenIn(await ask('ann@example.org'));
    const second = tokenIn(await ask('ann@example.org'));
    assert.equal(await reasonOf(use(first)), 'reset-token-invalid');
    assert.equal(await reasonOf(use('A'.repeat(43))), 'reset-token-invalid');
    assert.equal(await reasonOf(use('not a token')), 'reset-token-invalid');
    t.clock.advance(1800_000);
    assert.equal(await reasonOf(use(second)), 'reset-token-invalid');
  });

  it('a password the policy refuses (the current one, an earlier one, a short one) leaves the token valid', async () => {
    const token = tokenIn(await ask('ann@example.org'));
    const err = await use(token, 'short').catch((e: unknown) => e);
    assert.ok(isDomainError(err) && err.reason === 'password-policy');
    assert.equal(err.extras.errors?.[0]?.pointer, '/newPassword');
    assert.equal(await reasonOf(use(token, 'old-password-1')), 'password-policy', 'the current password');
    assert.equal((await use(token)).passwordReset, true);
    const next = tokenIn(await ask('ann@example.org'));
    assert.equal(await reasonOf(use(next, 'old-password-1')), 'password-policy', 'an earlier password (svc.password.history)');
    assert.equal((await use(next, 'third-password-3')).passwordReset, true);
  });

  it('of two concurrent uses of one token exactly one wins', async () => {
    const token = tokenIn(await ask('ann@example.org'));
    const results = await Promise.all([use(token, 'first-pass-11'), use(token, 'second-pass-22')].map((p) => reasonOf(p)));
    assert.deepEqual([...results].sort(), ['none', 'reset-token-invalid']);
  });

  it('a failed password write gives the token back', async () => {
    const token = tokenIn(await ask('ann@example.org'));
    const setPassword = t.accounts.setPassword.bind(t.accounts);
    t.accounts.setPassword = async () => {
      throw new Error('directory down');
    };
    await assert.rejects(use(token), /directory down/);
    t.accounts.setPassword = setPassword;
    assert.equal((await use(token)).passwordReset, true);
  });

  it('without a mail server forgot is 503 mail-unavailable; a failure after the answer is logged, never thrown', async () => {
    t.mailer.available = false;
    assert.equal(await reasonOf(forgot.execute({ loginType: 'web', email: 'ann@example.org' })), 'mail-unavailable');
    t.mailer.available = true;
    t.accounts.findByEmail = async () => {
      throw new Error('directory down');
    };
    await ask('ann@example.org');
    assert.deepEqual(t.logged.at(-1), {
      level: 'error',
      obj: { what: 'forgot-password', err: 'directory down' },
      msg: 'background work failed',
    });
  });
});
