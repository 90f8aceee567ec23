/**
 * Request signing on both apps, against both stores. Every signature is computed here,
 * independently of the production code (crypto.createHmac, and once the openssl CLI).
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import request from 'supertest';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

const APP = 'partner-app';
const SECRET = 'partner-secret-0123456789abcdef';
const OTHER = 'other-app';
const OTHER_SECRET = 'other-secret-0123456789abcdef';

const hmacHex = (secret: string, message: Buffer): string => createHmac('sha256', secret).update(message).digest('hex');

interface Signed {
  headers: Record<string, string>;
  body: string;
}

function sign(opts: { body?: string; ts: number | string; nonce?: string; app?: string; secret?: string }): Signed {
  const app = opts.app ?? APP;
  const nonce = opts.nonce ?? randomBytes(12).toString('hex');
  const body = opts.body ?? '';
  const ts = String(opts.ts);
  const x = hmacHex(opts.secret ?? SECRET, Buffer.concat([Buffer.from(app + ts + nonce, 'utf8'), Buffer.from(body, 'utf8')]));
  return { body, headers: { 'X-App-Key': app, 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': x } };
}

for (const kind of STORE_KINDS) {
  describe(`request signing (${kind} store)`, function () {
    const clock = new FakeClock();
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.security.sign.apps': { [APP]: SECRET, [OTHER]: OTHER_SECRET } }, kind);
      infra = testInfra(config, { clock, label: 'signing' });
      apps = buildBoth(config, infra);
    });
    after(async () => infra?.dispose());

    const post = (which: 'admin' | 'web', s: Signed, contentType = 'application/json') => {
      const r = request(apps[which].app.callback()).post('/open/echo').set(s.headers);
      return s.body === '' ? r : r.set('Content-Type', contentType).send(s.body);
    };
    /** The reason of an error response in either app's format. */
    const reasonOf = (which: 'admin' | 'web', res: request.Response): string | number =>
      which === 'admin' ? (res.body as { code: number }).code : (JSON.parse(res.text) as { code: string }).code;

    const CODES: Record<string, number> = {
      'sign-headers-missing': 40020,
      'sign-nonce-invalid': 40021,
      'sign-timestamp-invalid': 40121,
      'sign-invalid': 40122,
      'sign-nonce-replayed': 40123,
    };
    /** The human message of an error response in either app's format. */
    const messageOf = (which: 'admin' | 'web', res: request.Response): string => {
      const body = JSON.parse(res.text) as { message?: string; detail?: string };
      const text = which === 'admin' ? body.message : body.detail;
      assert.ok(typeof text === 'string' && text !== '', res.text);
      return text;
    };
    const expectFailure = (which: 'admin' | 'web', res: request.Response, status: number, reason: string) => {
      assert.equal(res.status, status, res.text);
      assert.equal(reasonOf(which, res), which === 'admin' ? CODES[reason] : reason);
      if (which === 'web') assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      else assert.equal((res.body as { data: unknown }).data, null);
    };

    for (const which of ['admin', 'web'] as const) {
      describe(`${which} app`, () => {
        it('a valid request passes and sees the parsed body and the app key; the same request again is a replay', async () => {
          const s = sign({ body: '{"amount":42,"note":"hi"}', ts: clock.now() });
          const res = await post(which, s).expect(200);
          const data = which === 'admin' ? res.body.data : res.body;
          assert.deepEqual(data, { appKey: APP, body: { amount: 42, note: 'hi' } });
          expectFailure(which, await post(which, s), 401, 'sign-nonce-replayed');
        });

        it('signs the raw bytes as received, not re-serialised JSON', async () => {
          const body = '{ "b" : "grüße <x>",\n  "a":1.50 }';
          const res = await post(which, sign({ body, ts: clock.now() })).expect(200);
          const data = which === 'admin' ? res.body.data : res.body;
          assert.deepEqual(data.body, { b: 'grüße <x>', a: 1.5 });
          // The same object signed as re-serialised JSON does not match the bytes sent.
          const s = sign({ body: JSON.stringify(JSON.parse(body)), ts: clock.now() });
          expectFailure(which, await post(which, { ...s, body }), 401, 'sign-invalid');
        });

        it('an empty body is signed as ""', async () => {
          const res = await post(which, sign({ ts: clock.now() })).expect(200);
          const data = which === 'admin' ? res.body.data : res.body;
          assert.deepEqual(data, { appKey: APP, body: null });
        });

        it('one changed body byte -> sign-invalid', async () => {
          const s = sign({ body: '{"amount":42}', ts: clock.now() });
          expectFailure(which, await post(which, { ...s, body: '{"amount":43}' }), 401, 'sign-invalid');
        });

        it('a timestamp 301 s old (or ahead) is rejected; 300 s is still accepted', async () => {
          expectFailure(which, await post(which, sign({ ts: clock.now() - 301_000 })), 401, 'sign-timestamp-invalid');
          expectFailure(which, await post(which, sign({ ts: clock.now() + 301_000 })), 401, 'sign-timestamp-invalid');
          await post(which, sign({ ts: clock.now() - 300_000 })).expect(200);
          await post(which, sign({ ts: clock.now() + 300_000 })).expect(200);
        });

        for (const ts of ['-1', '1.5', `${Date.now()}.0`, '1e12', '99999999999999999999999', 'abc', ' 1', '0x10']) {
          it(`timestamp "${ts}" -> sign-timestamp-invalid, never a 500`, async () => {
            expectFailure(which, await post(which, sign({ ts })), 401, 'sign-timestamp-invalid');
          });
        }

        it('an unknown app key answers exactly as a bad signature does (also for prototype names)', async () => {
          const bad = sign({ ts: clock.now() });
          const badSignature = await post(which, { ...bad, headers: { ...bad.headers, 'X-Sign': 'f'.repeat(64) } });
          expectFailure(which, badSignature, 401, 'sign-invalid');
          for (const app of ['nobody', 'constructor', '__proto__']) {
            const res = await post(which, sign({ ts: clock.now(), app, secret: 'whatever-secret-value' }));
            expectFailure(which, res, 401, 'sign-invalid');
            assert.equal(messageOf(which, res), messageOf(which, badSignature));
          }
        });

        it('X-Timestamp with leading zeros -> sign-timestamp-invalid; the same time without them passes', async () => {
          expectFailure(which, await post(which, sign({ ts: `0${clock.now()}` })), 401, 'sign-timestamp-invalid');
          expectFailure(which, await post(which, sign({ ts: `000${clock.now()}` })), 401, 'sign-timestamp-invalid');
          await post(which, sign({ ts: `${clock.now()}` })).expect(200);
        });

        it("a signature made with another app's secret -> sign-invalid", async () => {
          expectFailure(which, await post(which, sign({ ts: clock.now(), secret: OTHER_SECRET })), 401, 'sign-invalid');
        });

        it('a forged signature does not consume the nonce', async () => {
          const good = sign({ body: '{"x":1}', ts: clock.now() });
          const forged = { ...good, headers: { ...good.headers, 'X-Sign': 'f'.repeat(64) } };
          expectFailure(which, await post(which, forged), 401, 'sign-invalid');
          expectFailure(which, await post(which, { ...good, headers: { ...good.headers, 'X-Sign': 'zz' } }), 401, 'sign-invalid');
          await post(which, good).expect(200);
        });

        it('an upper-case hex signature is the same bytes and passes', async () => {
          const s = sign({ ts: clock.now() });
          await post(which, { ...s, headers: { ...s.headers, 'X-Sign': (s.headers['X-Sign'] as string).toUpperCase() } }).expect(200);
        });

        for (const h of ['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Sign']) {
          it(`missing ${h} -> 400 sign-headers-missing`, async () => {
            const s = sign({ ts: clock.now() });
            const headers = { ...s.headers };
            delete headers[h];
            expectFailure(which, await post(which, { ...s, headers }), 400, 'sign-headers-missing');
          });
        }

        for (const nonce of ['short', 'has space in it', 'x'.repeat(129), 'ünïcödé-nonce', 'semi;colon;nonce']) {
          it(`nonce ${JSON.stringify(nonce.slice(0, 20))} -> 400 sign-nonce-invalid`, async () => {
            expectFailure(which, await post(which, sign({ ts: clock.now(), nonce })), 400, 'sign-nonce-invalid');
          });
        }

        it('the order of checks: a bad timestamp is reported before a bad signature or an unknown app key (which look alike)', async () => {
          expectFailure(which, await post(which, sign({ ts: 'abc', app: 'nobody', secret: 'x' })), 401, 'sign-timestamp-invalid');
          const s = sign({ ts: clock.now() - 400_000 });
          expectFailure(
            which,
            await post(which, { ...s, headers: { ...s.headers, 'X-Sign': '0'.repeat(64) } }),
            401,
            'sign-timestamp-invalid',
          );
        });
      });
    }

    it('nonces are scoped per app key: one nonce can be used once by each app, and once across both Koa apps', async () => {
      const nonce = `shared-${randomBytes(6).toString('hex')}`;
      await post('web', sign({ ts: clock.now(), nonce })).expect(200);
      await post('web', sign({ ts: clock.now(), nonce, app: OTHER, secret: OTHER_SECRET })).expect(200);
      // The same signed request replayed against the other Koa app is still a replay.
      expectFailure('admin', await post('admin', sign({ ts: clock.now(), nonce })), 401, 'sign-nonce-replayed');
    });

    it('interoperates with the openssl CLI (openssl dgst -sha256 -hmac)', async () => {
      const body = '{"order":"A-1","qty":3}';
      const ts = String(clock.now());
      const nonce = `openssl-${randomBytes(6).toString('hex')}`;
      const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET], { input: APP + ts + nonce + body }).toString('utf8');
      const hex = out.trim().split(/\s+/).pop() as string;
      assert.match(hex, /^[0-9a-f]{64}$/);
      const res = await post('web', { body, headers: { 'X-App-Key': APP, 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': hex } }).expect(
        200,
      );
      assert.deepEqual(res.body.body, { order: 'A-1', qty: 3 });
    });

    if (kind === 'memory') {
      it('a nonce is forgotten after nonceTtlSeconds (600 s), by which time its timestamp is long stale', async () => {
        const s = sign({ ts: clock.now() });
        await post('web', s).expect(200);
        clock.advance(599_000);
        expectFailure('web', await post('web', sign({ ts: clock.now(), nonce: s.headers['X-Nonce'] })), 401, 'sign-nonce-replayed');
        clock.advance(2_000);
        await post('web', sign({ ts: clock.now(), nonce: s.headers['X-Nonce'] })).expect(200);
      });
    }
  });
}

describe('request signing switched off (svc.security.sign.enabled=false)', () => {
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  before(() => {
    const config = testConfig({ 'svc.security.sign.enabled': false });
    infra = testInfra(config, { label: 'signing-off' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  it('lets unsigned requests through on both apps (no app key is reported)', async () => {
    const w = await request(apps.web.app.callback()).post('/open/echo').send({ a: 1 }).expect(200);
    assert.deepEqual(w.body, { appKey: null, body: { a: 1 } });
    const a = await request(apps.admin.app.callback()).post('/open/echo').send({ a: 1 }).expect(200);
    assert.deepEqual(a.body.data, { appKey: null, body: { a: 1 } });
  });
});

describe('example handlers are not mounted when svc.examples.enabled=false', () => {
  it('POST /open/echo is 404 on both apps', async () => {
    const config = testConfig({ 'svc.examples.enabled': false });
    const infra = testInfra(config, { label: 'no-examples' });
    try {
      const apps = buildBoth(config, infra);
      await request(apps.web.app.callback()).post('/open/echo').send({}).expect(404);
      await request(apps.admin.app.callback()).post('/open/echo').send({}).expect(404);
    } finally {
      await infra.dispose();
    }
  });
});
