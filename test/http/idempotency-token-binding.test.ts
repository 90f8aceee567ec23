/**
 * TOKEN mode and sessions: a token fetched with an access token is bound to that session; one
 * fetched anonymously may be spent by anyone; tokens stored by earlier releases (UUIDs) are still
 * spent from the store, bound as they were. Both stores.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { parseCidrList } from '../../src/adapters/koa/client-ip';
import { createHttpApp } from '../../src/adapters/koa/http-app';
import { idempotencyGuards } from '../../src/adapters/koa/idempotency-guards';
import { ProblemResponder } from '../../src/adapters/koa/responders';
import { route } from '../../src/adapters/koa/routes';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { idempotencyGuardDeps } from '../../src/main/container';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { requireRedis } from '../support/services';
import { z } from 'zod';

for (const kind of STORE_KINDS) {
  describe(`idempotency tokens bound to a session (${kind} store)`, function () {
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;
    let anonymousProbe: ReturnType<typeof createHttpApp>;
    let seq = 0;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({}, kind);
      infra = testInfra(config, { label: 'idem-binding' });
      apps = buildBoth(config, infra);
      // A TOKEN-guarded route without a login, on the web app's scope and store.
      const { idempotent } = idempotencyGuards(idempotencyGuardDeps(apps.web.container, config, infra));
      anonymousProbe = createHttpApp({
        realm: 'web',
        responder: new ProblemResponder(config.problemBaseUri),
        trustedProxies: parseCidrList([]),
        bodyLimitBytes: 4096,
        log: silentLogger,
        routes: [
          route({
            method: 'post',
            path: '/probe',
            summary: 'anonymous TOKEN route',
            guards: [idempotent({ mode: 'TOKEN' })],
            response: z.object({ ok: z.boolean() }),
            handler: async () => ({ ok: true }),
          }),
        ],
      });
    });
    after(async () => infra?.dispose());

    const web = () => request(apps.web.app.callback());
    const member = async (userId = `b${++seq}-${randomUUID().slice(0, 6)}`) =>
      `Bearer ${
        (
          await apps.web.container
            .get(SessionManagers)
            .get('web')
            .login({ userId, username: `m${userId}`, roles: ['member'], permissions: [] })
        ).token
      }`;
    const fetchToken = async (auth?: string): Promise<string> => {
      const req = web().get('/idempotent/token');
      const res = await (auth === undefined ? req : req.set('Authorization', auth)).expect(200);
      return res.body.token as string;
    };
    const order = (auth: string, token: string, item = 'book') =>
      web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', token).send({ item, quantity: 1 });
    const anonymously = (token: string) => request(anonymousProbe.callback()).post('/probe').set('X-Idempotent-Token', token).send({});
    const code = (res: request.Response) => (JSON.parse(res.text) as { code: string }).code;

    it(
      'fetched with a bearer token: refused (409) for another user, another session of the same ' +
        'user and anonymously; its owner still spends it',
      async () => {
        const ownerId = `owner-${randomUUID().slice(0, 6)}`;
        const owner = await member(ownerId);
        const t = await fetchToken(owner);
        for (const [who, attempt] of [
          ['another user', order(await member(), t)],
          ['another session of the same user', order(await member(ownerId), t)],
          ['anonymous', anonymously(t)],
        ] as const) {
          const res = await attempt;
          assert.equal(res.status, 409, who);
          assert.equal(code(res), 'idempotency-token-session-mismatch', who);
        }
        await order(owner, t).expect(201);
        assert.equal(code(await order(owner, t)), 'idempotency-token-invalid', 'spent once');
      },
    );

    it('a failed request gives a bound token back still bound', async () => {
      const owner = await member();
      const t = await fetchToken(owner);
      assert.equal((await order(owner, t, '')).status, 400);
      assert.equal(code(await order(await member(), t)), 'idempotency-token-session-mismatch');
      await order(owner, t).expect(201);
    });

    it('fetched anonymously: anyone may spend it, logged in or not', async () => {
      await order(await member(), await fetchToken()).expect(201);
      await anonymously(await fetchToken()).expect(200);
    });

    it('a token stored by an earlier release (its expiry alone) works as an anonymous token', async () => {
      for (const spend of [(t: string) => anonymously(t), async (t: string) => order(await member(), t)]) {
        const t = randomUUID();
        await infra.kv.set(`idem:token:web:${t}`, String(Date.now() + 600_000), 600_000);
        assert.ok([200, 201].includes((await spend(t)).status));
        assert.equal((await spend(t)).status, 409);
      }
    });

    it('a bound token stored by an earlier release: refused (and kept) for another session, spent by its own', async () => {
      const login = await apps.web.container
        .get(SessionManagers)
        .get('web')
        .login({ userId: `old-${randomUUID().slice(0, 6)}`, username: 'old', roles: ['member'], permissions: [] });
      const owner = `Bearer ${login.token}`;
      const session = login.tokenId;
      const t = randomUUID();
      await infra.kv.set(`idem:token:web:${t}`, JSON.stringify({ expiresAt: Date.now() + 600_000, session }), 600_000);
      assert.equal(code(await order(await member(), t)), 'idempotency-token-session-mismatch');
      assert.equal((await order(owner, t, '')).status, 400, 'a failed request gives it back');
      await order(owner, t).expect(201);
      assert.equal(code(await order(owner, t)), 'idempotency-token-invalid');
    });

    it('a token bound to another session is not burnt by the refusal, also under 20 concurrent strangers', async () => {
      const owner = await member();
      const t = await fetchToken(owner);
      const strangers = await Promise.all(Array.from({ length: 20 }, async () => order(await member(), t)));
      assert.ok(strangers.every((r) => r.status === 409 && code(r) === 'idempotency-token-session-mismatch'));
      await order(owner, t).expect(201);
    });

    it(
      'fetching with an access token that is not valid answers 401 instead of an unbound token; ' + 'the admin app binds its tokens too',
      async () => {
        const res = await web().get('/idempotent/token').set('Authorization', 'Bearer not-a-live-token');
        assert.equal(res.status, 401);
        assert.equal(code(res), 'token-invalid');
        const adminAuth = `Bearer ${
          (
            await apps.admin.container
              .get(SessionManagers)
              .get('admin')
              .login({ userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] })
          ).token
        }`;
        const bound = await request(apps.admin.app.callback()).get('/idempotent/token').set('Authorization', adminAuth).expect(200);
        assert.match(bound.body.data.token, /^[A-Za-z0-9_-]{22}\.\d{13}\.s[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
      },
    );
  });
}
