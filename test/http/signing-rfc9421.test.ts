/**
 * RFC 9421 HTTP Message Signatures on both apps, against both stores. Every signature is made by
 * `http-message-signatures` (an implementation nobody here wrote); the Content-Digest (RFC 9530)
 * is computed here with node:crypto. Nothing of the server's signing code is used to sign.
 */
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSigner, httpbis } from 'http-message-signatures';
import request from 'supertest';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

const RFC_APP = 'http-sig-app';
const RFC_SECRET = 'http-sig-secret-0123456789abcdef';
const V1_APP = 'v1-only-app';
const V1_SECRET = 'v1-only-secret-0123456789abcdef';
const BOTH_APP = 'migrating-app';
const BOTH_SECRET = 'migrating-secret-0123456789abcdef';
/** The Host header every request is sent with, so the client knows the URI it signs. */
const HOST = 'api.partner.test';
/** The web app's configured public base URL (as behind a proxy that maps it to the app's root). */
const WEB_PUBLIC = 'https://gateway.partner.test/authguard';

type Which = 'admin' | 'web';
const baseOf = (which: Which): string => (which === 'web' ? WEB_PUBLIC : `http://${HOST}`);

interface SignOptions {
  readonly method: 'GET' | 'POST';
  /** The absolute URI the client signs. */
  readonly url: string | URL;
  readonly body?: string;
  readonly app?: string;
  readonly secret?: string;
  readonly nonce?: string;
  /** ms since the epoch; the library writes seconds. */
  readonly created: number;
  readonly expires?: number;
  readonly fields?: readonly string[];
  readonly params?: readonly string[];
  readonly alg?: string;
}

interface Signed {
  readonly headers: Record<string, string>;
  readonly body: string;
}

const digestOf = (body: string): string => `sha-256=:${createHash('sha256').update(body, 'utf8').digest('base64')}:`;

async function sign9421(o: SignOptions): Promise<Signed> {
  const body = o.body ?? '';
  const headers: Record<string, string> = body === '' ? {} : { 'content-type': 'application/json', 'content-digest': digestOf(body) };
  const fields = o.fields ?? ['@method', '@target-uri', ...(body === '' ? [] : ['content-digest'])];
  const signed = await httpbis.signMessage(
    {
      key: createSigner(o.secret ?? RFC_SECRET, 'hmac-sha256', o.app ?? RFC_APP),
      fields: [...fields],
      params: [...(o.params ?? ['created', 'nonce', 'keyid', 'alg', ...(o.expires !== undefined ? ['expires'] : [])])],
      paramValues: {
        created: new Date(o.created),
        nonce: o.nonce ?? randomBytes(12).toString('hex'),
        ...(o.expires !== undefined ? { expires: new Date(o.expires) } : {}),
        ...(o.alg !== undefined ? { alg: o.alg } : {}),
      },
    },
    { method: o.method, url: o.url, headers },
  );
  return { body, headers: signed.headers as Record<string, string> };
}

for (const kind of STORE_KINDS) {
  describe(`RFC 9421 request signatures (${kind} store)`, function () {
    const clock = new FakeClock();
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig(
        {
          'svc.security.sign.apps': { [RFC_APP]: RFC_SECRET, [V1_APP]: V1_SECRET, [BOTH_APP]: BOTH_SECRET },
          'svc.security.sign.schemes': { [RFC_APP]: 'rfc9421', [V1_APP]: 'v1', [BOTH_APP]: 'v1, rfc9421' },
          'svc.security.sign.public-urls': { web: WEB_PUBLIC },
        },
        kind,
      );
      infra = testInfra(config, { clock, label: 'signing-rfc9421' });
      apps = buildBoth(config, infra);
    });
    after(async () => infra?.dispose());

    /** Sends a signed request to `target` (path and query as sent) with `method`, Host: HOST. */
    const send = (which: Which, method: 'GET' | 'POST', target: string, s: Signed) => {
      const agent = request(apps[which].app.callback());
      const r = (method === 'GET' ? agent.get(target) : agent.post(target)).set('Host', HOST).set(s.headers);
      return s.body === '' ? r : r.send(s.body);
    };
    const reasonOf = (which: Which, res: request.Response): string | number =>
      which === 'admin' ? (res.body as { code: number }).code : (JSON.parse(res.text) as { code: string }).code;
    const messageOf = (which: Which, res: request.Response): string => {
      const body = JSON.parse(res.text) as { message?: string; detail?: string };
      const text = which === 'admin' ? body.message : body.detail;
      assert.ok(typeof text === 'string' && text !== '', res.text);
      return text;
    };
    const CODES: Record<string, number> = {
      'sign-headers-missing': 40020,
      'sign-nonce-invalid': 40021,
      'sign-input-invalid': 40022,
      'sign-timestamp-invalid': 40121,
      'sign-invalid': 40122,
      'sign-nonce-replayed': 40123,
      'sign-digest-mismatch': 40124,
    };
    const expectFailure = (which: Which, res: request.Response, status: number, reason: string) => {
      assert.equal(res.status, status, res.text);
      assert.equal(reasonOf(which, res), which === 'admin' ? CODES[reason] : reason);
    };
    const ok = async (pending: Promise<request.Response>): Promise<request.Response> => {
      const res = await pending;
      assert.equal(res.status, 200, res.text);
      return res;
    };
    const dataOf = (which: Which, res: request.Response) => (which === 'admin' ? res.body.data : res.body);

    for (const which of ['admin', 'web'] as const) {
      describe(`${which} app`, () => {
        const base = baseOf(which);
        const post = async (o: Partial<SignOptions> & { body: string }, target = '/open/echo') =>
          send(which, 'POST', target, await sign9421({ method: 'POST', url: base + target, created: clock.now(), ...o }));

        it('a POST with a body, signed by http-message-signatures, verifies; sent again it is a replay', async () => {
          const s = await sign9421({
            method: 'POST',
            url: `${base}/open/echo?ref=A-1`,
            body: '{"amount":42,"note":"grüße"}',
            created: clock.now(),
          });
          const res = await send(which, 'POST', '/open/echo?ref=A-1', s).expect(200);
          assert.deepEqual(dataOf(which, res), { appKey: RFC_APP, body: { amount: 42, note: 'grüße' } });
          expectFailure(which, await send(which, 'POST', '/open/echo?ref=A-1', s), 401, 'sign-nonce-replayed');
        });

        it(
          'a query the input filter would escape (quotes, an encoded &) still verifies: the signed ' + 'target is the one received',
          async () => {
            const target = '/open/echo?name=O%27Brien&q=a%26b%3Cc%3E';
            const s = await sign9421({ method: 'GET', url: base + target, created: clock.now() });
            await ok(send(which, 'GET', target, s));
          },
        );

        if (which === 'admin') {
          it('a Host carrying a path cannot move part of the signed path into the authority', async () => {
            const signedFor = '/v2/open/echo?x=1';
            const s = await sign9421({ method: 'GET', url: `http://${HOST}${signedFor}`, created: clock.now() });
            const res = await request(apps.admin.app.callback()).get('/open/echo?x=1').set('Host', `${HOST}/v2`).set(s.headers);
            expectFailure(which, res, 401, 'sign-invalid');
          });
        }

        it('a GET without a body verifies (no Content-Digest needed) and sees its query', async () => {
          const s = await sign9421({ method: 'GET', url: `${base}/open/echo?page=2&sort=name`, created: clock.now() });
          const res = await send(which, 'GET', '/open/echo?page=2&sort=name', s).expect(200);
          assert.deepEqual(dataOf(which, res), { appKey: RFC_APP, query: { page: '2', sort: 'name' } });
        });

        it('a changed or added query is refused', async () => {
          const s = await sign9421({ method: 'GET', url: `${base}/open/echo?amount=1`, created: clock.now() });
          expectFailure(which, await send(which, 'GET', '/open/echo?amount=1000', s), 401, 'sign-invalid');
          expectFailure(which, await send(which, 'GET', '/open/echo?amount=1&admin=true', s), 401, 'sign-invalid');
          const plain = await sign9421({ method: 'POST', url: `${base}/open/echo`, body: '{"x":1}', created: clock.now() });
          expectFailure(which, await send(which, 'POST', '/open/echo?admin=true', plain), 401, 'sign-invalid');
          await send(which, 'GET', '/open/echo?amount=1', s).expect(200); // the refusals burnt no nonce
        });

        it('a changed path is refused', async () => {
          const s = await sign9421({ method: 'GET', url: `${base}/open/other`, created: clock.now() });
          expectFailure(which, await send(which, 'GET', '/open/echo', s), 401, 'sign-invalid');
        });

        it('a changed method is refused', async () => {
          const s = await sign9421({ method: 'GET', url: `${base}/open/echo`, created: clock.now() });
          expectFailure(which, await send(which, 'POST', '/open/echo', s), 401, 'sign-invalid');
          await send(which, 'GET', '/open/echo', s).expect(200);
        });

        it('a changed body is refused: against its Content-Digest, or with a recomputed digest against the signature', async () => {
          const s = await sign9421({ method: 'POST', url: `${base}/open/echo`, body: '{"amount":42}', created: clock.now() });
          expectFailure(which, await send(which, 'POST', '/open/echo', { ...s, body: '{"amount":43}' }), 401, 'sign-digest-mismatch');
          const redigested = { body: '{"amount":43}', headers: { ...s.headers, 'content-digest': digestOf('{"amount":43}') } };
          expectFailure(which, await send(which, 'POST', '/open/echo', redigested), 401, 'sign-invalid');
          await send(which, 'POST', '/open/echo', s).expect(200);
        });

        it('a replayed nonce is refused even in a freshly signed request', async () => {
          const nonce = `once-${randomBytes(6).toString('hex')}`;
          await ok(post({ body: '{"a":1}', nonce }));
          expectFailure(which, await post({ body: '{"a":2}', nonce }), 401, 'sign-nonce-replayed');
        });

        it('the window: created 301 s away is refused, 300 s is accepted; a passed expires is refused', async () => {
          expectFailure(which, await post({ body: '{}', created: clock.now() - 301_000 }), 401, 'sign-timestamp-invalid');
          expectFailure(which, await post({ body: '{}', created: clock.now() + 301_000 }), 401, 'sign-timestamp-invalid');
          await ok(post({ body: '{}', created: clock.now() - 300_000 }));
          expectFailure(
            which,
            await post({ body: '{}', created: clock.now() - 10_000, expires: clock.now() - 1_000 }),
            401,
            'sign-timestamp-invalid',
          );
        });

        it('a signature that does not cover the required components or parameters is refused (400 sign-input-invalid)', async () => {
          const cases: Array<Partial<SignOptions> & { body: string }> = [
            { body: '{}', fields: ['@method', 'content-digest'] },
            { body: '{}', fields: ['@target-uri', 'content-digest'] },
            { body: '{}', fields: ['@method', '@target-uri'] },
            { body: '{}', fields: ['@method', '@path', '@query', 'content-digest'] },
            { body: '{}', params: ['nonce', 'keyid'] },
            { body: '{}', params: ['created', 'keyid'] },
            { body: '{}', params: ['created', 'nonce'] },
            { body: '{}', alg: 'rsa-pss-sha512' },
          ];
          for (const c of cases) expectFailure(which, await post(c), 400, 'sign-input-invalid');
          const get = await sign9421({ method: 'GET', url: `${base}/open/echo`, created: clock.now(), fields: ['@method', '@path'] });
          expectFailure(which, await send(which, 'GET', '/open/echo', get), 400, 'sign-input-invalid');
        });

        it('other covered components are accepted, and a malformed nonce is refused', async () => {
          await ok(
            post({ body: '{}', fields: ['@method', '@target-uri', '@authority', '@path', '@query', 'content-digest', 'content-type'] }),
          );
          expectFailure(which, await post({ body: '{}', nonce: 'short' }), 400, 'sign-nonce-invalid');
        });

        it('malformed or incomplete signature headers are 400s, never a 500', async () => {
          const s = await sign9421({ method: 'GET', url: `${base}/open/echo`, created: clock.now() });
          const without = (name: string) => Object.fromEntries(Object.entries(s.headers).filter(([k]) => k.toLowerCase() !== name));
          expectFailure(
            which,
            await send(which, 'GET', '/open/echo', { body: '', headers: without('signature') }),
            400,
            'sign-headers-missing',
          );
          for (const [name, value] of [
            ['Signature-Input', 'sig1=(("nested"))'],
            ['Signature-Input', 'sig1="@method"'],
            ['Signature-Input', 'sig1=("@method" "@target-uri" "@method");created=1'],
            ['Signature-Input', 'sig1=("@method";req "@target-uri")'],
            ['Signature-Input', 'sig1=("@status" "@target-uri")'],
            ['Signature-Input', '((('],
            ['Signature', 'sig1="not-bytes"'],
            ['Signature', 'other=:AAAA:'],
            ['Signature', ':::'],
          ] as const) {
            const res = await send(which, 'GET', '/open/echo', { body: '', headers: { ...without(name.toLowerCase()), [name]: value } });
            expectFailure(which, res, 400, 'sign-input-invalid');
          }
        });

        it('an unknown keyid answers exactly as a bad signature does', async () => {
          const bad = await sign9421({
            method: 'POST',
            url: `${base}/open/echo`,
            body: '{}',
            created: clock.now(),
            secret: 'not-the-secret-0123456789',
          });
          const badRes = await send(which, 'POST', '/open/echo', bad);
          expectFailure(which, badRes, 401, 'sign-invalid');
          for (const app of ['nobody', '__proto__', 'constructor']) {
            const res = await post({ body: '{}', app, secret: 'whatever-secret-value' });
            expectFailure(which, res, 401, 'sign-invalid');
            assert.equal(messageOf(which, res), messageOf(which, badRes));
          }
        });

        it('schemes per app: v1 refuses RFC 9421 and vice versa (as a bad signature), v1,rfc9421 accepts both', async () => {
          const badRes = await post({ body: '{}', secret: 'not-the-secret-0123456789' });
          const v1App9421 = await post({ body: '{}', app: V1_APP, secret: V1_SECRET });
          expectFailure(which, v1App9421, 401, 'sign-invalid');
          assert.equal(messageOf(which, v1App9421), messageOf(which, badRes));

          const v1 = (app: string, secret: string, body: string) => {
            const ts = String(clock.now());
            const nonce = randomBytes(12).toString('hex');
            const x = createHmac('sha256', secret)
              .update(app + ts + nonce + body)
              .digest('hex');
            return {
              body,
              headers: { 'Content-Type': 'application/json', 'X-App-Key': app, 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': x },
            };
          };
          expectFailure(which, await send(which, 'POST', '/open/echo', v1(RFC_APP, RFC_SECRET, '{}')), 401, 'sign-invalid');
          assert.equal(dataOf(which, await send(which, 'POST', '/open/echo', v1(V1_APP, V1_SECRET, '{"v":1}')).expect(200)).appKey, V1_APP);
          assert.equal(
            dataOf(which, await send(which, 'POST', '/open/echo', v1(BOTH_APP, BOTH_SECRET, '{"v":1}')).expect(200)).appKey,
            BOTH_APP,
          );
          assert.equal(dataOf(which, await ok(post({ body: '{"v":2}', app: BOTH_APP, secret: BOTH_SECRET }))).appKey, BOTH_APP);
        });

        it('v1 and RFC 9421 share the nonce store of an app (v1,rfc9421)', async () => {
          const nonce = `shared-${randomBytes(6).toString('hex')}`;
          await ok(post({ body: '{}', app: BOTH_APP, secret: BOTH_SECRET, nonce }));
          const ts = String(clock.now());
          const x = createHmac('sha256', BOTH_SECRET)
            .update(BOTH_APP + ts + nonce)
            .digest('hex');
          const res = await send(which, 'POST', '/open/echo', {
            body: '',
            headers: { 'X-App-Key': BOTH_APP, 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': x },
          });
          expectFailure(which, res, 401, 'sign-nonce-replayed');
        });
      });
    }

    describe('@target-uri: what the server reconstructs', () => {
      it('without a public URL (admin): http:// + the Host header + the request target; another Host is refused', async () => {
        const s = await sign9421({ method: 'GET', url: `http://${HOST}/open/echo?q=1`, created: clock.now() });
        const other = await request(apps.admin.app.callback()).get('/open/echo?q=1').set('Host', 'elsewhere.test').set(s.headers);
        expectFailure('admin', other, 401, 'sign-invalid');
        const https = await sign9421({ method: 'GET', url: `https://${HOST}/open/echo?q=1`, created: clock.now() });
        expectFailure('admin', await send('admin', 'GET', '/open/echo?q=1', https), 401, 'sign-invalid');
        await send('admin', 'GET', '/open/echo?q=1', s).expect(200);
      });

      it('with a public URL (web): the public base URL + the request target, whatever Host the proxy sends', async () => {
        const internal = await sign9421({ method: 'GET', url: `http://${HOST}/open/echo`, created: clock.now() });
        expectFailure('web', await send('web', 'GET', '/open/echo', internal), 401, 'sign-invalid');
        const pub = await sign9421({ method: 'GET', url: `${WEB_PUBLIC}/open/echo`, created: clock.now() });
        await request(apps.web.app.callback()).get('/open/echo').set('Host', '10.0.0.7:8081').set(pub.headers).expect(200);
      });

      it('the host is compared case-insensitively and without its default port (WHATWG URL form)', async () => {
        const s = await sign9421({ method: 'GET', url: new URL(`http://${HOST}:80/open/echo`), created: clock.now() });
        await request(apps.admin.app.callback()).get('/open/echo').set('Host', `${HOST.toUpperCase()}:80`).set(s.headers).expect(200);
      });
    });
  });
}
