import assert from 'node:assert/strict';
import 'reflect-metadata';
import request from 'supertest';
import { STORE_KINDS } from '../support/apps';
import { codeFor, mailsTo, memberTestbed, post, problem, type MemberTestbed } from '../support/member-accounts';
import { requireRedis } from '../support/services';

/** A six-digit code that is not `code`. */
const other = (code: string, by = 1): string => String((Number(code) + by) % 1_000_000).padStart(6, '0');

for (const kind of STORE_KINDS) {
  describe(`members' e-mail over HTTP (${kind} store)`, function () {
    this.timeout(30000);
    let c: MemberTestbed;
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      c = memberTestbed(kind, 'member-email');
    });
    after(async () => c?.infra.dispose());

    const register = (body: Record<string, unknown>, ip: string) => post(c.web, '/auth/register', ip).send(body);
    const verify = (email: string, code: string, ip = '10.7.0.1') => post(c.web, '/auth/verify-email', ip).send({ email, code });
    const login = (username: string, password: string, ip: string) => post(c.web, '/auth/login', ip).send({ username, password });

    it('register without an address: no message; with one: unverified, a code mailed, the right code verifies once', async () => {
      const plain = await register({ username: 'no-mail', password: 'member-pass-11' }, '10.6.0.1').expect(201);
      assert.deepEqual(Object.keys(plain.body).sort(), ['email', 'emailVerified', 'userId', 'username']);
      assert.equal(plain.body.email, null);
      assert.equal(plain.body.emailVerified, false);

      const reg = await register({ username: 'ann', password: 'member-pass-11', email: ' Ann@Example.org ' }, '10.6.0.2').expect(201);
      assert.equal(reg.body.email, 'Ann@Example.org');
      assert.equal(reg.body.emailVerified, false);
      const [message] = mailsTo(c.infra, 'ann@example.org');
      assert.match(message?.subject ?? '', /verification code/i);
      assert.match(message?.text ?? '', /verification code is \d{6}\..*account "ann"/s);
      const code = codeFor(c.infra, 'ann@example.org');

      problem(await verify('ann@example.org', other(code)), 400, 'verification-code-invalid');
      const ok = await verify('ANN@example.ORG', code).expect(200);
      assert.deepEqual(ok.body, { email: 'Ann@Example.org', verified: true });
      problem(await verify('ann@example.org', code), 400, 'verification-code-invalid');
      await login('ann', 'member-pass-11', '10.6.0.3').expect(200);
    });

    it('an address in use, in any case, is 409 email-taken and creates nothing; a malformed one is 400', async () => {
      await register({ username: 'bea', password: 'member-pass-11', email: 'bea@example.org' }, '10.6.1.1').expect(201);
      const taken = problem(
        await register({ username: 'bea2', password: 'member-pass-22', email: 'BEA@EXAMPLE.ORG' }, '10.6.1.2'),
        409,
        'email-taken',
      );
      assert.doesNotMatch(JSON.stringify(taken), /bea@example/i);
      problem(await login('bea2', 'member-pass-22', '10.6.1.3'), 401, 'bad-credentials');
      const bad = problem(
        await register({ username: 'bea3', password: 'member-pass-33', email: 'not-an-address' }, '10.6.1.4'),
        400,
        'validation-failed',
      );
      assert.deepEqual(
        (bad.errors as Array<{ pointer: string }>).map((e) => e.pointer),
        ['/email'],
      );
      const long = `${'a'.repeat(250)}@x.org`;
      problem(await register({ username: 'bea4', password: 'member-pass-44', email: long }, '10.6.1.5'), 400, 'validation-failed');
      assert.equal(mailsTo(c.infra, 'bea@example.org').length, 1);
    });

    it('five wrong codes spend it: the right one is then refused; a malformed code is a validation error', async () => {
      await register({ username: 'cid', password: 'member-pass-11', email: 'cid@example.org' }, '10.6.2.1').expect(201);
      const code = codeFor(c.infra, 'cid@example.org');
      problem(await verify('cid@example.org', '12345'), 400, 'validation-failed');
      for (let i = 1; i <= 5; i++) problem(await verify('cid@example.org', other(code, i), '10.7.2.1'), 400, 'verification-code-invalid');
      problem(await verify('cid@example.org', code, '10.7.2.2'), 400, 'verification-code-invalid');
      problem(await verify('nobody@example.org', code, '10.7.2.2'), 400, 'verification-code-invalid');
    });

    it('send again answers 202 alike for waiting, verified and unknown addresses; only a waiting one gets a new code', async () => {
      await register({ username: 'dee', password: 'member-pass-11', email: 'dee@example.org' }, '10.6.3.1').expect(201);
      const first = codeFor(c.infra, 'dee@example.org');
      const send = (email: string, ip: string) => post(c.web, '/auth/verify-email/send', ip).send({ email });
      const waiting = await send('DEE@example.org', '10.6.3.2').expect(202);
      const unknown = await send('nobody@example.org', '10.6.3.3').expect(202);
      assert.deepEqual(waiting.body, unknown.body);
      assert.deepEqual(waiting.body, {
        accepted: true,
        detail: 'If an account with this address is waiting for its verification, a new code is on its way.',
      });
      await c.settle();
      assert.equal(mailsTo(c.infra, 'dee@example.org').length, 2);
      assert.equal(mailsTo(c.infra, 'nobody@example.org').length, 0);
      const second = codeFor(c.infra, 'dee@example.org');
      if (second !== first) problem(await verify('dee@example.org', first), 400, 'verification-code-invalid');
      await verify('dee@example.org', second).expect(200);
      const verified = await send('dee@example.org', '10.6.3.4').expect(202);
      assert.deepEqual(verified.body, unknown.body);
      await c.settle();
      assert.equal(mailsTo(c.infra, 'dee@example.org').length, 2, 'a verified address gets nothing');
    });

    it('send again is limited per address (whatever the IP and the case) and per IP', async () => {
      const send = (email: string, ip: string) => post(c.web, '/auth/verify-email/send', ip).send({ email });
      for (let i = 0; i < 5; i++) await send(i % 2 ? 'Limit@example.org' : 'limit@example.org', `10.6.4.${i + 1}`).expect(202);
      const limited = problem(await send('LIMIT@example.org', '10.6.4.9'), 429, 'rate-limited');
      assert.ok(limited);
      const res = await send('limit@example.org', '10.6.4.10');
      assert.match(res.headers['ratelimit-policy'] ?? '', /"verify-email-send";q=10;w=3600, "verify-email-send-address";q=5;w=3600/);
      for (let i = 0; i < 10; i++) await send(`ip-${i}@example.org`, '10.6.5.1').expect(202);
      problem(await send('ip-10@example.org', '10.6.5.1'), 429, 'rate-limited');
      await c.settle();
    });

    it('GET /dev/mailbox shows the message: what it is, and the code', async () => {
      await register({ username: 'eli', password: 'member-pass-11', email: 'eli@example.org' }, '10.6.6.1').expect(201);
      const box = await request(c.web.callback()).get('/dev/mailbox').expect(200);
      const message = (box.body as Array<{ to: string; subject: string; text: string }>).find((m) => m.to === 'eli@example.org');
      assert.equal(message?.subject, 'Your e-mail verification code');
      assert.match(message?.text ?? '', new RegExp(`verification code is ${codeFor(c.infra, 'eli@example.org')}\\.`));
    });
  });
}

describe("members' e-mail: svc.web.require-email and a missing mail server", function () {
  this.timeout(30000);
  it('require-email refuses a registration without an address (400 at /email)', async () => {
    const c = memberTestbed('memory', 'member-email-required', { 'svc.web.require-email': true });
    try {
      const res = problem(
        await post(c.web, '/auth/register', '10.6.7.1').send({ username: 'fay', password: 'member-pass-11' }),
        400,
        'validation-failed',
      );
      assert.deepEqual(res.errors, [{ pointer: '/email', detail: 'is required (svc.web.require-email)' }]);
      await post(c.web, '/auth/register', '10.6.7.1')
        .send({ username: 'fay', password: 'member-pass-11', email: 'fay@example.org' })
        .expect(201);
    } finally {
      await c.infra.dispose();
    }
  });
});
