/**
 * Duplicate-submission protection on the real apps, against both stores:
 * PARAM (admin POST /examples/notices), TOKEN (web POST /orders), HEADER (web POST /payments).
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
import { signToken } from '../../src/application/idempotency/one-time-token';
import { SessionManagers } from '../../src/application/session/session-manager';
import type { Principal } from '../../src/domain/session';
import { idempotencyGuardDeps } from '../../src/main/container';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';
import { z } from 'zod';

/** `<nonce>.<expiresAt ms>.<a | s<session digest>>.<mac>` (one-time-token.ts). */
const SIGNED_TOKEN = /^[A-Za-z0-9_-]{22}\.\d{13}\.a\.[A-Za-z0-9_-]{43}$/;

const member = (id: string): Principal => ({ userId: id, username: `member${id}`, roles: ['member'], permissions: [] });
const adminUser = (id: string): Principal => ({ userId: id, username: `admin${id}`, roles: ['admin'], permissions: ['*:*:*'] });

for (const kind of STORE_KINDS) {
  describe(`duplicate-submission protection (${kind} store)`, function () {
    const clock = new FakeClock(Date.now());
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;
    let seq = 0;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({}, kind);
      infra = testInfra(config, { clock, label: 'idempotency' });
      apps = buildBoth(config, infra);
    });
    after(async () => infra?.dispose());

    const web = () => request(apps.web.app.callback());
    const admin = () => request(apps.admin.app.callback());
    const login = async (type: 'admin' | 'web', p: Principal) =>
      `Bearer ${(await apps.web.container.get(SessionManagers).get(type).login(p)).token}`;
    const freshMember = () => login('web', member(`m${++seq}-${randomUUID().slice(0, 6)}`));
    const problem = (res: request.Response) => JSON.parse(res.text) as { code: string; status: number };

    describe('PARAM (admin POST /examples/notices)', () => {
      it('50 concurrent identical submissions: exactly one creates a record, the rest 409 duplicate-submission', async () => {
        const auth = await login('admin', adminUser(`a${++seq}`));
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            admin().post('/examples/notices').set('Authorization', auth).send({ title: 'Maintenance tonight' }),
          ),
        );
        const statuses = results.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
        for (const r of results.filter((x) => x.status !== 201)) {
          assert.equal(r.status, 409);
          assert.equal(r.body.code, 40910);
          assert.equal(r.body.data, null);
        }
        const list = await admin().get('/examples/notices').set('Authorization', auth).expect(200);
        assert.equal(list.body.data.length, 1);
        assert.equal(list.body.data[0].data.title, 'Maintenance tonight');
      });

      it('different parameters or another user are not duplicates; key order and spacing do not matter', async () => {
        const a = await login('admin', adminUser(`a${++seq}`));
        const b = await login('admin', adminUser(`a${++seq}`));
        await admin().post('/examples/notices').set('Authorization', a).send({ title: 'one' }).expect(201);
        await admin().post('/examples/notices').set('Authorization', a).send({ title: 'two' }).expect(201);
        await admin().post('/examples/notices').set('Authorization', b).send({ title: 'one' }).expect(201);
        const dup = await admin()
          .post('/examples/notices')
          .set('Authorization', a)
          .set('Content-Type', 'application/json')
          .send('{ "title" :  "one" }');
        assert.equal(dup.status, 409);
        await admin().post('/examples/notices?draft=1').set('Authorization', a).send({ title: 'one' }).expect(201);
      });

      it('a failed request releases the lock, so the user can retry at once', async () => {
        const a = await login('admin', adminUser(`a${++seq}`));
        const bad = { title: '' };
        assert.equal((await admin().post('/examples/notices').set('Authorization', a).send(bad)).status, 400);
        assert.equal(
          (await admin().post('/examples/notices').set('Authorization', a).send(bad)).status,
          400,
          'not 409: the failed first request released its lock',
        );
      });

      if (kind === 'memory') {
        it('the lock of a successful request lives its TTL (5 s), then the same submission is accepted again', async () => {
          const a = await login('admin', adminUser(`a${++seq}`));
          await admin().post('/examples/notices').set('Authorization', a).send({ title: 'ttl' }).expect(201);
          clock.advance(4_900);
          assert.equal((await admin().post('/examples/notices').set('Authorization', a).send({ title: 'ttl' })).status, 409);
          clock.advance(200);
          await admin().post('/examples/notices').set('Authorization', a).send({ title: 'ttl' }).expect(201);
        });
      }

      it('generic guard: anonymous callers are told apart by IP; a thrown error releases the lock', async () => {
        const config = testConfig({}, kind);
        const { idempotent } = idempotencyGuards(idempotencyGuardDeps(apps.web.container, config, infra));
        let calls = 0;
        const probe = createHttpApp({
          realm: 'web',
          responder: new ProblemResponder(config.problemBaseUri),
          trustedProxies: parseCidrList(['127.0.0.1', '::1']),
          bodyLimitBytes: 4096,
          log: silentLogger,
          routes: [
            route({
              method: 'post',
              path: '/probe/:id',
              summary: 'fails on its first call',
              guards: [idempotent({ mode: 'PARAM', ttlSeconds: 30 })],
              response: z.object({ id: z.string(), calls: z.number() }),
              handler: async (_ctx, { params }) => {
                calls++;
                if (calls === 1) throw new Error('transient failure');
                return { id: params.id, calls };
              },
            }),
          ],
        });
        const id = randomUUID();
        const from = (ip: string) => request(probe.callback()).post(`/probe/${id}`).set('X-Forwarded-For', ip).send({ x: 1 });
        assert.equal((await from('203.0.113.1')).status, 500);
        assert.equal((await from('203.0.113.1')).status, 200, 'the throw released the lock');
        assert.equal((await from('203.0.113.1')).status, 409);
        assert.equal((await from('203.0.113.2')).status, 200, 'another client IP is another caller');
        const other = await request(probe.callback()).post(`/probe/${randomUUID()}`).set('X-Forwarded-For', '203.0.113.1').send({ x: 1 });
        assert.equal(other.status, 200, 'path parameters are part of the parameters');
      });
    });

    describe('TOKEN (web GET /idempotent/token, POST /orders)', () => {
      const token = async (app = web) => {
        const res = await app().get('/idempotent/token').expect(200);
        assert.equal(res.headers['cache-control'], 'no-store');
        return res;
      };

      it('issues signed tokens valid for 600 s on both apps (admin in the envelope)', async () => {
        const w = await token();
        assert.match(w.body.token, SIGNED_TOKEN);
        assert.equal(w.body.expiresIn, 600);
        const a = await token(admin);
        assert.equal(a.body.code, 0);
        assert.match(a.body.data.token, SIGNED_TOKEN);
      });

      it('a forged, tampered or other-key token -> 409 idempotency-token-invalid; the real one still works', async () => {
        const auth = await freshMember();
        const t = (await token()).body.token as string;
        const [nonce = '', exp = '', binding = '', mac = ''] = t.split('.');
        const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
        const later = String(Number(exp) + 3_600_000);
        const otherKey = signToken(['another-key-0123456789abcdef-0123456789'], 'web', Number(exp), undefined);
        for (const bad of [
          `${flip(nonce)}.${exp}.${binding}.${mac}`,
          `${nonce}.${later}.${binding}.${mac}`,
          `${nonce}.${exp}.${binding}.${flip(mac)}`,
          `${nonce}.${exp}.s${nonce}.${mac}`,
          otherKey,
          `${t}x`,
        ]) {
          const r = await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', bad).send({ item: 'a', quantity: 1 });
          assert.equal(r.status, 409, bad);
          assert.equal(problem(r).code, 'idempotency-token-invalid', bad);
        }
        await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', t).send({ item: 'a', quantity: 1 }).expect(201);
      });

      it('50 concurrent requests with one token: exactly one creates an order, the rest 409', async () => {
        const auth = await freshMember();
        const t = (await token()).body.token as string;
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', t).send({ item: 'book', quantity: 1 }),
          ),
        );
        const statuses = results.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
        for (const r of results.filter((x) => x.status !== 201)) {
          assert.equal(r.status, 409);
          assert.equal(problem(r).code, 'idempotency-token-invalid');
        }
        const list = await web().get('/orders').set('Authorization', auth).expect(200);
        assert.equal(list.body.length, 1);
        assert.deepEqual(list.body[0].data, { item: 'book', quantity: 1 });
      });

      it('missing -> 400; unknown, malformed, used -> 409', async () => {
        const auth = await freshMember();
        const missing = await web().post('/orders').set('Authorization', auth).send({ item: 'a', quantity: 1 });
        assert.equal(missing.status, 400);
        assert.equal(problem(missing).code, 'idempotency-token-missing');
        for (const bad of [randomUUID(), 'not-a-token', '<script>']) {
          const r = await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', bad).send({ item: 'a', quantity: 1 });
          assert.equal(r.status, 409, bad);
          assert.equal(problem(r).code, 'idempotency-token-invalid');
        }
        const t = (await token()).body.token as string;
        await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', t).send({ item: 'a', quantity: 1 }).expect(201);
        assert.equal(
          (await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', t).send({ item: 'a', quantity: 1 })).status,
          409,
        );
      });

      it('a token of the admin app is unknown on the web app', async () => {
        const auth = await freshMember();
        const t = (await token(admin)).body.data.token as string;
        assert.equal(
          (await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', t).send({ item: 'a', quantity: 1 })).status,
          409,
        );
      });

      it('a request that fails gives its token back', async () => {
        const auth = await freshMember();
        const t = (await token()).body.token as string;
        assert.equal(
          (await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', t).send({ item: '', quantity: 0 })).status,
          400,
        );
        await web()
          .post('/orders')
          .set('Authorization', auth)
          .set('X-Idempotent-Token', t)
          .send({ item: 'fixed', quantity: 2 })
          .expect(201);
        const list = await web().get('/orders').set('Authorization', auth).expect(200);
        assert.equal(list.body.length, 1);
      });

      if (kind === 'memory') {
        it('an unused token expires after 600 s', async () => {
          const auth = await freshMember();
          const t = (await token()).body.token as string;
          clock.advance(600_001);
          const r = await web().post('/orders').set('Authorization', auth).set('X-Idempotent-Token', t).send({ item: 'a', quantity: 1 });
          assert.equal(r.status, 409);
          assert.equal(problem(r).code, 'idempotency-token-invalid');
        });
      }
    });

    describe('HEADER (web POST /payments, Idempotency-Key)', () => {
      it(
        '50 concurrent requests with one key: one execution, the rest 409 in progress (Retry-After) ' + 'or the replayed response',
        async () => {
          const auth = await freshMember();
          const key = randomUUID();
          const results = await Promise.all(
            Array.from({ length: 50 }, () =>
              web().post('/payments').set('Authorization', auth).set('Idempotency-Key', key).send({ amount: 1999, currency: 'EUR' }),
            ),
          );
          const list = await web().get('/payments').set('Authorization', auth).expect(200);
          assert.equal(list.body.length, 1, 'exactly one payment was created');
          const created = list.body[0];
          let originals = 0;
          for (const r of results) {
            if (r.status === 409) {
              assert.equal(problem(r).code, 'idempotency-in-progress');
              assert.equal(r.headers['retry-after'], '1');
            } else {
              assert.equal(r.status, 201, r.text);
              assert.deepEqual(r.body, created);
              if (r.headers['idempotent-replayed'] !== 'true') originals++;
            }
          }
          assert.equal(originals, 1);
        },
      );

      it('a retry after completion replays status, body and content type; another payload -> 422', async () => {
        const auth = await freshMember();
        const key = `"${randomUUID()}"`; // the draft's structured-field form is accepted too
        const first = await web()
          .post('/payments')
          .set('Authorization', auth)
          .set('Idempotency-Key', key)
          .send({ amount: 500, currency: 'USD' })
          .expect(201);
        assert.equal(first.headers['idempotent-replayed'], undefined);
        const again = await web()
          .post('/payments')
          .set('Authorization', auth)
          .set('Idempotency-Key', key)
          .set('Content-Type', 'application/json')
          .send('{"currency":"USD", "amount":500}');
        assert.equal(again.status, 201);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.match(again.headers['content-type'] ?? '', /application\/json/);
        assert.deepEqual(again.body, first.body);
        const other = await web()
          .post('/payments')
          .set('Authorization', auth)
          .set('Idempotency-Key', key)
          .send({ amount: 501, currency: 'USD' });
        assert.equal(other.status, 422);
        assert.equal(problem(other).code, 'idempotency-key-mismatch');
        assert.equal((await web().get('/payments').set('Authorization', auth)).body.length, 1);
      });

      it('missing key -> 400; a malformed key -> 400 validation-failed', async () => {
        const auth = await freshMember();
        const missing = await web().post('/payments').set('Authorization', auth).send({ amount: 1, currency: 'EUR' });
        assert.equal(missing.status, 400);
        assert.equal(problem(missing).code, 'idempotency-key-missing');
        const bad = await web()
          .post('/payments')
          .set('Authorization', auth)
          .set('Idempotency-Key', 'x'.repeat(256))
          .send({ amount: 1, currency: 'EUR' });
        assert.equal(bad.status, 400);
        assert.equal(problem(bad).code, 'validation-failed');
        assert.equal((await web().get('/payments').set('Authorization', auth)).body.length, 0);
      });

      it('keys are scoped to the caller: another member with the same key gets their own execution', async () => {
        const a = await freshMember();
        const b = await freshMember();
        const key = randomUUID();
        const ra = await web()
          .post('/payments')
          .set('Authorization', a)
          .set('Idempotency-Key', key)
          .send({ amount: 10, currency: 'EUR' })
          .expect(201);
        const rb = await web()
          .post('/payments')
          .set('Authorization', b)
          .set('Idempotency-Key', key)
          .send({ amount: 10, currency: 'EUR' })
          .expect(201);
        assert.equal(rb.headers['idempotent-replayed'], undefined);
        assert.notEqual(ra.body.id, rb.body.id);
      });

      it('a failed request leaves no record: the same key works afterwards, even with a corrected payload', async () => {
        const auth = await freshMember();
        const key = randomUUID();
        const bad = await web()
          .post('/payments')
          .set('Authorization', auth)
          .set('Idempotency-Key', key)
          .send({ amount: -5, currency: 'EUR' });
        assert.equal(bad.status, 400);
        const ok = await web()
          .post('/payments')
          .set('Authorization', auth)
          .set('Idempotency-Key', key)
          .send({ amount: 5, currency: 'EUR' })
          .expect(201);
        assert.equal(ok.headers['idempotent-replayed'], undefined);
      });

      it('guarded routes still require login first (401, nothing stored)', async () => {
        const r = await web().post('/payments').set('Idempotency-Key', randomUUID()).send({ amount: 1, currency: 'EUR' });
        assert.equal(r.status, 401);
      });
    });
  });
}
