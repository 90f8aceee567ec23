/**
 * TotpFactors on the in-memory store with a fake clock: enrolment (pending, confirm, ten recovery codes once),
 * verification (±1 step, not ±2, each code once, even through another instance), recovery codes (single use),
 * encryption at rest (not the plaintext; the previous key still opens; a stale secret is sealed again) and removal.
 * Codes come from oathtool where it is there, else from the RFC 6238 arithmetic the adapter's own tests pin.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { InMemoryTotpStore } from '../../src/adapters/memory/totp-store';
import { OtpauthTotp } from '../../src/adapters/otp/otpauth-totp';
import { QrcodeSvg } from '../../src/adapters/otp/qrcode-svg';
import { SecretBox } from '../../src/application/mfa/secret-box';
import { PENDING_TTL_MS, TotpFactors } from '../../src/application/mfa/totp-factors';
import type { Logger } from '../../src/application/ports/logger';
import type { TotpStore } from '../../src/application/ports/totp-store';
import { DomainError, type Reason } from '../../src/domain/errors';
import { FakeClock } from '../support/fake-clock';
import { oathtoolAvailable, oathtoolCode } from '../support/oathtool';

const STEP_MS = 30_000;
const algorithm = new OtpauthTotp();
/** The code an authenticator app shows for `secret` at `at` (ms). */
const codeAt = (secret: string, at: number): string =>
  oathtoolAvailable() ? oathtoolCode(secret, at) : algorithm.codeAt(secret, Math.floor(at / STEP_MS));

const rejectsWith = (reason: Reason) => (e: unknown) => e instanceof DomainError && e.reason === reason;

/** Everything logged, to show that no secret or code reaches the log. */
class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  debug = (o: object, m?: string) => this.lines.push(JSON.stringify([o, m]));
  info = this.debug;
  warn = this.debug;
  error = this.debug;
}

describe('TotpFactors (enrolment, verification, recovery codes)', () => {
  let clock: FakeClock;
  let store: InMemoryTotpStore;
  let log: RecordingLogger;
  const key = randomBytes(32);
  const factorsWith = (keys: readonly Buffer[], s: TotpStore = store) =>
    new TotpFactors(s, algorithm, new QrcodeSvg(), clock, log, { encryptionKeys: keys, issuer: 'Acme' });
  let factors: TotpFactors;

  beforeEach(() => {
    // In the middle of a time step, so that ±1 step is a whole step either side.
    clock = new FakeClock(Date.UTC(2026, 0, 1, 0, 0, 15));
    store = new InMemoryTotpStore();
    log = new RecordingLogger();
    factors = factorsWith([key]);
  });

  /** An enrolled account: the secret and the recovery codes. */
  async function enrol(userId = '7'): Promise<{ secret: string; recoveryCodes: readonly string[] }> {
    const { secret } = await factors.setup('admin', { userId, username: 'ann' });
    const recoveryCodes = await factors.confirm('admin', userId, codeAt(secret, clock.now()));
    clock.advance(STEP_MS); // the confirming code's step is spent
    return { secret, recoveryCodes };
  }

  it('setup shows the secret, the otpauth URI (issuer, username) and its QR code; the store keeps it sealed', async () => {
    const e = await factors.setup('admin', { userId: '7', username: 'ann' });
    assert.match(e.secret, /^[A-Z2-7]{32}$/);
    const uri = new URL(e.otpauthUrl);
    assert.equal(decodeURIComponent(uri.pathname), '/Acme:ann');
    assert.equal(uri.searchParams.get('secret'), e.secret);
    assert.equal(uri.searchParams.get('issuer'), 'Acme');
    assert.match(e.qrSvg, /^<svg /);
    const sealed = await store.pending('admin', '7', clock.now());
    assert.ok(sealed !== null && !sealed.includes(e.secret), 'a stored secret is not the plaintext');
    assert.equal(new SecretBox([key]).open(sealed, 'totp\nadmin\n7')?.plaintext, e.secret);
    assert.equal(await factors.isEnrolled('admin', '7'), false, 'pending is not enrolled');
  });

  it('confirm: without a pending setup 409, a wrong code 401, then ten distinct recovery codes, once', async () => {
    await assert.rejects(factors.confirm('admin', '7', '123456'), rejectsWith('mfa-setup-missing'));
    const { secret } = await factors.setup('admin', { userId: '7', username: 'ann' });
    const right = codeAt(secret, clock.now());
    const wrong = right === '000000' ? '000001' : '000000';
    for (const bad of [wrong, '12345', 'abcdef', ''])
      await assert.rejects(factors.confirm('admin', '7', bad), rejectsWith('mfa-code-invalid'), JSON.stringify(bad));
    const codes = await factors.confirm('admin', '7', ` ${right.slice(0, 3)} ${right.slice(3)} `);
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const c of codes) assert.match(c, /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    assert.equal(await factors.isEnrolled('admin', '7'), true);
    assert.equal(await factors.recoveryCodesLeft('admin', '7'), 10);
    await assert.rejects(factors.confirm('admin', '7', right), rejectsWith('mfa-already-enrolled'));
    await assert.rejects(factors.setup('admin', { userId: '7', username: 'ann' }), rejectsWith('mfa-already-enrolled'));
  });

  it('a setup lapses after PENDING_TTL_MS; a new setup replaces the old secret', async () => {
    const first = await factors.setup('admin', { userId: '7', username: 'ann' });
    const second = await factors.setup('admin', { userId: '7', username: 'ann' });
    assert.notEqual(first.secret, second.secret);
    const oldCode = codeAt(first.secret, clock.now());
    if (oldCode !== codeAt(second.secret, clock.now()))
      await assert.rejects(factors.confirm('admin', '7', oldCode), rejectsWith('mfa-code-invalid'));
    clock.advance(PENDING_TTL_MS);
    await assert.rejects(factors.confirm('admin', '7', codeAt(second.secret, clock.now())), rejectsWith('mfa-setup-missing'));
  });

  it('the code that confirmed enrolment cannot be used again', async () => {
    const { secret } = await factors.setup('admin', { userId: '7', username: 'ann' });
    const code = codeAt(secret, clock.now());
    await factors.confirm('admin', '7', code);
    assert.equal(await factors.verify('admin', '7', code), false);
  });

  it('verify: the current code is accepted once; a replay is refused, also by another instance', async () => {
    const { secret } = await enrol();
    const code = codeAt(secret, clock.now());
    const other = factorsWith([key]); // a second instance on the same store
    assert.equal(await factors.verify('admin', '7', code), true);
    assert.equal(await factors.verify('admin', '7', code), false, 'replayed');
    assert.equal(await other.verify('admin', '7', code), false, 'replayed through another instance');
    clock.advance(STEP_MS);
    assert.equal(await other.verify('admin', '7', codeAt(secret, clock.now())), true, 'the next step');
  });

  it('two instances verifying one code at the same moment: exactly one accepts it', async () => {
    const { secret } = await enrol();
    const code = codeAt(secret, clock.now());
    const results = await Promise.all([factors.verify('admin', '7', code), factorsWith([key]).verify('admin', '7', code)]);
    assert.deepEqual(results.sort(), [false, true]);
  });

  it('±1 step is accepted (clock drift), ±2 steps are refused', async () => {
    const { secret } = await enrol();
    clock.advance(STEP_MS); // the step before now is not the one enrolment spent
    const now = clock.now();
    assert.equal(await factors.verify('admin', '7', codeAt(secret, now + 2 * STEP_MS)), false, '+2');
    assert.equal(await factors.verify('admin', '7', codeAt(secret, now - 2 * STEP_MS)), false, '-2');
    assert.equal(await factors.verify('admin', '7', codeAt(secret, now - STEP_MS)), true, '-1');
    assert.equal(await factors.verify('admin', '7', codeAt(secret, now + STEP_MS)), true, '+1');
    // A code older than one accepted is refused: the current step's, after the next step's was accepted.
    assert.equal(await factors.verify('admin', '7', codeAt(secret, now)), false, 'older than the accepted +1');
  });

  it('a code from oathtool (an independent implementation) confirms and verifies', async function () {
    if (!oathtoolAvailable()) this.skip(); // test/unit/totp-algorithm.test.ts fails loudly without it under CI
    const { secret } = await factors.setup('web', { userId: '42', username: 'bob' });
    await factors.confirm('web', '42', oathtoolCode(secret, clock.now()));
    clock.advance(STEP_MS);
    assert.equal(await factors.verify('web', '42', oathtoolCode(secret, clock.now())), true);
  });

  it('accounts are apart: another login type or user has no factor, and a code of one is not valid for another', async () => {
    const a = await enrol('7');
    assert.equal(await factors.isEnrolled('web', '7'), false);
    assert.equal(await factors.verify('web', '7', codeAt(a.secret, clock.now())), false);
    assert.equal(await factors.verify('admin', '8', codeAt(a.secret, clock.now())), false);
    assert.equal(await factors.useRecoveryCode('admin', '8', a.recoveryCodes[0] as string), false);
  });

  it('recovery codes: each accepted once, typed in any case with or without dashes; a wrong one is refused', async () => {
    const { recoveryCodes } = await enrol();
    const [first, second] = recoveryCodes as [string, string];
    assert.equal(await factors.useRecoveryCode('admin', '7', first), true);
    assert.equal(await factors.useRecoveryCode('admin', '7', first), false, 'used');
    assert.equal(await factors.useRecoveryCode('admin', '7', ` ${second.toUpperCase().replace(/-/g, ' ')} `), true);
    assert.equal(await factors.useRecoveryCode('admin', '7', second), false);
    for (const bad of ['', 'nope', '0000-0000-0000-0000', first.slice(0, -1)])
      assert.equal(await factors.useRecoveryCode('admin', '7', bad), false, bad);
    assert.equal(await factors.recoveryCodesLeft('admin', '7'), 8);
  });

  it('rotation: a factor sealed under the old key verifies with it as the previous key, and is sealed again under the new', async () => {
    const oldKey = key;
    const { secret } = await enrol();
    const newKey = randomBytes(32);
    const rotated = factorsWith([newKey, oldKey]);
    assert.equal(await rotated.verify('admin', '7', codeAt(secret, clock.now())), true);
    const sealed = (await store.active('admin', '7'))?.secret ?? '';
    assert.deepEqual(new SecretBox([newKey]).open(sealed, 'totp\nadmin\n7'), { plaintext: secret, stale: false });
    clock.advance(STEP_MS);
    assert.equal(await factorsWith([newKey]).verify('admin', '7', codeAt(secret, clock.now())), true, 'the old key is no longer needed');
  });

  it('no key: enrolment answers 503 mfa-unavailable; a secret no configured key opens answers 503 on verify', async () => {
    const none = factorsWith([]);
    await assert.rejects(none.setup('admin', { userId: '7', username: 'ann' }), rejectsWith('mfa-unavailable'));
    await assert.rejects(none.confirm('admin', '7', '123456'), rejectsWith('mfa-unavailable'));
    const { secret } = await enrol();
    await assert.rejects(factorsWith([randomBytes(32)]).verify('admin', '7', codeAt(secret, clock.now())), rejectsWith('mfa-unavailable'));
    assert.equal(await none.isEnrolled('admin', '7'), true);
  });

  it('remove: the factor, its recovery codes and its codes are gone; a new enrolment can start', async () => {
    const { secret, recoveryCodes } = await enrol();
    assert.equal(await factors.remove('admin', '7'), true);
    assert.equal(await factors.isEnrolled('admin', '7'), false);
    assert.equal(await factors.verify('admin', '7', codeAt(secret, clock.now())), false);
    assert.equal(await factors.useRecoveryCode('admin', '7', recoveryCodes[0] as string), false);
    assert.equal(await factors.remove('admin', '7'), false);
    await enrol();
    assert.equal(await factors.isEnrolled('admin', '7'), true);
  });

  it('nothing logged carries a secret or a code', async () => {
    const { secret, recoveryCodes } = await enrol();
    await factorsWith([randomBytes(32)])
      .verify('admin', '7', codeAt(secret, clock.now()))
      .catch(() => undefined);
    assert.ok(log.lines.length > 0, 'the key mismatch was logged');
    const all = log.lines.join('\n');
    for (const s of [secret, codeAt(secret, clock.now()), ...recoveryCodes]) assert.ok(!all.includes(s), 'leaked');
  });
});
