/**
 * Hostile input, continued: every route with a valid logged-in token (so the fuzz reaches the
 * handlers behind the guards) on both stores, RSA ciphertext junk at the login, out-of-range
 * timestamps on signed routes, a fixed corpus of known attacks as named cases, and afterwards the
 * store holds no partial record: no idempotency record left "running", no PARAM lock or nonce
 * beyond the requests that succeeded, no user created by a refused request.
 */
import assert from 'node:assert/strict';
import { constants, createHmac, publicEncrypt, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import Redis from 'ioredis';
import request from 'supertest';
import { TOKENS } from '../../src/application/tokens';
import type { KeyValueStore } from '../../src/application/ports/key-value-store';
import { nonceKey } from '../../src/application/signing/verify-signature';
import type { BuiltApp } from '../../src/main/operations';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { assertAppFormat, concretePath, headerSet, pathParam, query, rawBody, type Format } from '../support/hostile';
import { REDIS_URL, requireRedis } from '../support/services';
import { SessionManagers } from '../../src/application/session/session-manager';

const SIGN_APP = 'partner';
const SIGN_SECRET = 'hostile-store-secret-0123456789';
const KV_METHODS = [
  'get',
  'set',
  'setMany',
  'setIfAbsent',
  'getAndDelete',
  'delete',
  'deleteIfEquals',
  'deleteIfEqualsAndSet',
  'setIfAbsentOrGet',
  'replaceIfEquals',
  'increment',
] as const;

/** The keys a KeyValueStore call names. */
function keysOf(method: (typeof KV_METHODS)[number], args: unknown[]): string[] {
  if (method === 'setMany') return (args[0] as Array<{ key: string }>).map((e) => e.key);
  if (method === 'deleteIfEqualsAndSet') return [String(args[0]), (args[2] as { key: string }).key];
  return [String(args[0])];
}

/** The KeyValueStore, remembering every key it was asked about (to inspect them afterwards). */
function recording(kv: KeyValueStore): { kv: KeyValueStore; keys: Set<string> } {
  const keys = new Set<string>();
  const wrapped = Object.create(kv) as KeyValueStore;
  for (const m of KV_METHODS) {
    const fn = kv[m] as (...a: unknown[]) => Promise<unknown>;
    (wrapped as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
      for (const k of keysOf(m, args)) keys.add(k);
      return fn.apply(kv, args);
    };
  }
  return { kv: wrapped, keys };
}

const formatOf = (name: 'admin' | 'web'): Format => (name === 'admin' ? 'envelope' : 'problem');

for (const kind of STORE_KINDS) {
  describe(`hostile input with a valid login, store left clean (${kind} store)`, function () {
    this.timeout(120_000);
    let infra: TestInfra;
    let apps: Record<'admin' | 'web', BuiltApp>;
    let kvKeys: Set<string>;
    let kv: KeyValueStore;
    let tokens: Record<'admin' | 'web', string>;
    let usersBefore: number;
    /** 2xx answers per "METHOD /template". */
    const successes = new Map<string, number>();
    let ipSeq = 0;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig(
        {
          'svc.body-limit-bytes': 64 * 1024,
          'svc.trusted-proxies': '127.0.0.1,::1',
          'svc.security.sign.apps': { [SIGN_APP]: SIGN_SECRET },
          'svc.crypto.worker-threads': 1,
        },
        kind,
      );
      infra = testInfra(config, { label: 'hostile-store' });
      const rec = recording(infra.kv);
      kv = rec.kv;
      kvKeys = rec.keys;
      apps = buildBoth(config, { ...infra, kv });
      const managers = apps.admin.container.get(SessionManagers);
      const principal = { userId: 'fuzz', username: 'fuzz', roles: ['admin'], permissions: ['*:*:*'] };
      tokens = { admin: (await managers.get('admin').login(principal)).token, web: (await managers.get('web').login(principal)).token };
      usersBefore = (await apps.admin.container.get(TOKENS.UserDirectory).list(0, 1)).total;
    });
    after(async () => infra?.dispose());

    for (const name of ['admin', 'web'] as const) {
      it(`${name}: every route, logged in, survives generated bodies, queries and headers`, async () => {
        const cb = apps[name].app.callback();
        for (const route of apps[name].routes) {
          const id = `${route.method.toUpperCase()} ${route.path}`;
          await fc.assert(
            fc.asyncProperty(rawBody, headerSet, query, pathParam, async (body, headers, q, param) => {
              let req = request(cb)[route.method](concretePath(route.path, param)).query(q);
              for (const [k, v] of Object.entries(headers))
                if (k !== 'authorization' && k !== 'x-forwarded-for') req = req.set(k, v as string);
              req = req
                .set('Authorization', `Bearer ${tokens[name]}`)
                .set('X-Forwarded-For', `10.66.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`);
              if (route.method !== 'get') req = req.send(body);
              const res = await req;
              assertAppFormat(formatOf(name), res as never, id);
              if (res.status < 300) successes.set(id, (successes.get(id) ?? 0) + 1);
              assert.equal(({} as Record<string, unknown>).polluted, undefined, 'prototype pollution');
            }),
            { numRuns: 8 },
          );
        }
      });
    }

    it('admin: junk, oversized and wrong-key RSA ciphertexts at the login are 400/401, never 5xx', async () => {
      const cb = apps.admin.app.callback();
      const other = (await import('node:crypto')).generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
      const ciphertext = fc.oneof(
        fc.base64String({ minLength: 1, maxLength: 700 }),
        fc.uint8Array({ minLength: 256, maxLength: 256 }).map((b) => Buffer.from(b).toString('base64')), // right size, random
        fc.uint8Array({ minLength: 1, maxLength: 3000 }).map((b) => Buffer.from(b).toString('base64')), // oversized
        fc.string({ minLength: 1, maxLength: 300 }), // not base64 at all
        fc.constant(
          publicEncrypt({ key: other, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('admin123')).toString(
            'base64',
          ),
        ),
        fc.constant('A'.repeat(4097)),
      );
      await fc.assert(
        fc.asyncProperty(ciphertext, fc.constantFrom('admin', 'nobody'), async (password, username) => {
          const res = await request(cb)
            .post('/auth/login')
            .set('X-Forwarded-For', `10.67.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`)
            .send({ username, password });
          assertAppFormat('envelope', res as never, 'login');
          if (password.length > 4096) assert.equal(res.body.code, 40000, res.text);
          else
            assert.ok(
              res.body.code === 40110 || res.body.code === 42901 || res.body.code === 42800,
              `expected bad-credentials (or the account lock: 429 with a device cookie, 428 captcha-required without), got ${res.text}`,
            );
        }),
        { numRuns: kind === 'redis' ? 10 : 25 },
      );
    });

    it('negative, huge, fractional and out-of-window timestamps on signed routes: 401 sign-timestamp-invalid, no nonce burnt', async () => {
      const now = Date.now();
      const timestamp = fc.oneof(
        fc.integer({ min: -1e15, max: -1 }).map(String),
        fc.bigInt({ min: 10n ** 15n, max: 10n ** 40n }).map(String),
        fc.integer({ min: 301_000, max: 1e12 }).map((d) => String(now - d)),
        fc.integer({ min: 301_000, max: 1e12 }).map((d) => String(now + d)),
        fc.double({ noNaN: false }).map(String),
        fc.constantFrom('1e12', '0x1F', ' 1', '+1', '', 'NaN', 'Infinity', '-0', String(now) + '.5'),
      );
      const nonces: string[] = [];
      for (const name of ['admin', 'web'] as const) {
        const cb = apps[name].app.callback();
        await fc.assert(
          fc.asyncProperty(timestamp, async (ts) => {
            const body = '{"a":1}';
            const nonce = randomBytes(12).toString('hex');
            nonces.push(nonce);
            const sign = createHmac('sha256', SIGN_SECRET)
              .update(SIGN_APP + ts + nonce + body)
              .digest('hex');
            const res = await request(cb)
              .post('/open/echo')
              .set({ 'Content-Type': 'application/json', 'X-App-Key': SIGN_APP, 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': sign })
              .send(body);
            assertAppFormat(formatOf(name), res as never, `timestamp ${ts}`);
            const code = name === 'admin' ? res.body.code : JSON.parse(res.text).code;
            if (ts === '') assert.ok(code === 40020 || code === 'sign-headers-missing', res.text);
            else assert.ok(code === 40121 || code === 'sign-timestamp-invalid', `${ts}: ${res.text}`);
          }),
          { numRuns: kind === 'redis' ? 15 : 40 },
        );
      }
      for (const n of nonces) assert.equal(await infra.kv.get(nonceKey(SIGN_APP, n)), null, 'a refused request burns no nonce');
    });

    describe('named attack corpus', () => {
      const xss = [
        '<script>alert(1)</script>',
        '"><img src=x onerror=alert(1)>',
        "'><svg/onload=alert(1)>",
        'javascript:alert(1)',
        '<iframe src="javascript:alert(1)">',
      ];
      for (const name of ['admin', 'web'] as const) {
        it(`${name}: XSS payloads in query and headers reach the handler escaped`, async () => {
          const cb = apps[name].app.callback();
          for (const p of xss) {
            const res = await request(cb)
              .get('/examples/echo')
              .query({ q: p, [p]: '1' })
              .set('X-Echo', p);
            assert.equal(res.status, 200);
            assert.ok(!/[<>]/.test(JSON.stringify(res.body)), `unescaped markup for ${p}: ${res.text}`);
            // the same payloads on a protected route: 401 in the app's format, nothing reflected raw
            const denied = await request(cb)
              .get(name === 'admin' ? '/auth/me' : '/user/profile')
              .query({ q: p })
              .set('Authorization', `Bearer ${p}`);
            assert.equal(denied.status, 401);
            assertAppFormat(formatOf(name), denied as never, p);
            assert.ok(!denied.text.includes('<'), denied.text);
          }
        });

        it(`${name}: prototype pollution through JSON bodies and query strings has no effect`, async () => {
          const cb = apps[name].app.callback();
          const auth = { Authorization: `Bearer ${tokens[name]}` };
          const path = name === 'admin' ? '/examples/notices' : '/orders';
          const bodies = [
            '{"__proto__":{"polluted":true},"title":"x"}',
            '{"constructor":{"prototype":{"polluted":true}},"title":"x"}',
            '{"title":"x","__proto__":{"isAdmin":true}}',
          ];
          for (const body of bodies) {
            const res = await request(cb).post(path).set(auth).set('Content-Type', 'application/json').send(body);
            assertAppFormat(formatOf(name), res as never, body);
            assert.ok(res.status >= 400, `a body with unknown keys is refused: ${res.status}`);
          }
          for (const q of ['__proto__[polluted]=1', 'constructor[prototype][polluted]=1', '__proto__.polluted=1']) {
            const res = await request(cb).get(`/examples/echo?${q}`);
            assertAppFormat(formatOf(name), res as never, q);
          }
          assert.equal(({} as Record<string, unknown>).polluted, undefined);
          assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
        });
      }
    });

    describe('finally', () => {
      it('afterwards the store holds no partial record', async () => {
        const present = async (prefix: string) => {
          const out: Array<[string, string]> = [];
          for (const k of kvKeys) {
            if (!k.startsWith(prefix)) continue;
            const v = await infra.kv.get(k);
            if (v !== null) out.push([k, v]);
          }
          return out;
        };
        // HEADER: a record still "running" would block its key; every fuzzed request has finished.
        const running = (await present('idem:key:')).filter(([, v]) => (JSON.parse(v) as { state?: string }).state === 'running');
        assert.deepEqual(running, [], 'no Idempotency-Key record left running');
        // PARAM: a failed request releases its lock; only successes keep theirs (for the TTL).
        const paramOk = [...successes]
          .filter(([id]) => id === 'POST /system/user' || id === 'POST /examples/notices')
          .reduce((n, [, c]) => n + c, 0);
        assert.ok((await present('idem:param:')).length <= paramOk, 'no PARAM lock of a refused request');
        // Signing: only verified requests record a nonce (none of the fuzzed ones had a valid signature).
        assert.equal((await present('sign:nonce:')).length, successes.get('POST /open/echo') ?? 0);
        // Users: none created by a refused request.
        const users = (await apps.admin.container.get(TOKENS.UserDirectory).list(0, 1)).total;
        assert.equal(users, usersBefore + (successes.get('POST /system/user') ?? 0));
        if (kind === 'redis') {
          // And by SCAN over the whole prefix: no running idempotency record anywhere.
          const c = new Redis(REDIS_URL);
          try {
            const pattern = `${infra.keyPrefix}*idem:key:*`;
            let cursor = '0';
            do {
              const [next, keys] = await c.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
              cursor = next;
              for (const k of keys) {
                const v = await c.get(k);
                assert.notEqual(v && (JSON.parse(v) as { state?: string }).state, 'running', `${k} left running`);
              }
            } while (cursor !== '0');
          } finally {
            c.disconnect();
          }
        }
      });
    });
  });
}
