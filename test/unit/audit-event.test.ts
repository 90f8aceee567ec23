/**
 * The audit event model: ids sort by time, user agents become names, and no event carries a
 * password, token, code, cookie, secret or signature whatever it was handed (fuzzed).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { eventOf, SECURITY_EVENT_TYPES, type SecurityEventInput } from '../../src/application/audit/security-event';
import { UuidV7, uuidV7Time } from '../../src/application/audit/event-id';
import { BowserUserAgentParser } from '../../src/adapters/audit/bowser-user-agent-parser';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

describe('audit events', () => {
  describe('UuidV7', () => {
    it('is a version 7, variant 10 UUID carrying its ms', () => {
      const id = new UuidV7().next(1_700_000_000_123);
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(uuidV7Time(id), 1_700_000_000_123);
    });

    it('sorts in the order made: within one ms, past 4,096 in one ms, and when the clock steps back', () => {
      const gen = new UuidV7();
      const times = [...Array(5000).fill(1000), 999, 998, 2000, 1500];
      const ids = times.map((t) => gen.next(t));
      assert.deepEqual([...ids].sort(), ids);
      assert.equal(new Set(ids).size, ids.length);
    });
  });

  describe('BowserUserAgentParser', () => {
    const ua = new BowserUserAgentParser();
    it('names OS, browser and device type', () => {
      assert.deepEqual(ua.parse(CHROME), { os: 'Windows 10', browser: 'Chrome 120', deviceType: 'desktop' });
      assert.deepEqual(ua.parse(IPHONE), { os: 'iOS 17', browser: 'Safari 17', deviceType: 'mobile' });
    });
    it('answers unknown for an empty or odd header, never throws', () => {
      assert.deepEqual(ua.parse(''), { os: 'unknown', browser: 'unknown', deviceType: 'unknown' });
      assert.equal(ua.parse('curl/8.5.0').os, 'unknown');
      fc.assert(fc.property(fc.string({ maxLength: 2000 }), (s) => typeof ua.parse(s).browser === 'string'));
    });
  });

  describe('eventOf', () => {
    it('keeps the known fields, marks an operation by its action, drops a reason on success', () => {
      const e = eventOf(
        {
          type: 'user-disabled',
          loginType: 'admin',
          outcome: 'success',
          reason: 'permission-denied',
          actor: 'root',
          action: 'user.disable',
          target: '7',
        },
        'id',
        5,
      );
      assert.deepEqual(e, {
        id: 'id',
        time: 5,
        type: 'user-disabled',
        log: 'operation',
        loginType: 'admin',
        outcome: 'success',
        actor: 'root',
        action: 'user.disable',
        target: '7',
      });
    });

    it('refuses what is not of its shape: a token id, an IP, a reason outside the catalogue, control characters', () => {
      const e = eventOf(
        {
          type: 'login',
          loginType: 'web',
          outcome: 'failure',
          reason: 'not-a-reason' as never,
          tokenId: 'Bearer 0123456789abcdef',
          ip: '10.0.0.1; DROP',
          username: 'ann\nFORGED LINE',
          requestId: 'r 1',
        },
        'id',
        1,
      );
      assert.deepEqual(e, {
        id: 'id',
        time: 1,
        type: 'login',
        log: 'login',
        loginType: 'web',
        outcome: 'failure',
        username: 'annFORGED LINE',
      });
    });

    it('no event carries a password, token, code, cookie, secret or signature, whatever the input (fuzzed)', () => {
      // A secret is planted under every name a careless recorder could pass on; only the fields of the
      // model survive, each of its own shape, so none of them may reach the event.
      const secret = fc.stringMatching(/^[A-Za-z0-9+/=_-]{24,64}$/);
      const planted = ['password', 'token', 'accessToken', 'refreshToken', 'code', 'cookie', 'secret', 'signature', 'headers', 'body'];
      fc.assert(
        fc.property(
          fc.constantFrom(...SECURITY_EVENT_TYPES),
          fc.constantFrom('admin' as const, 'web' as const),
          fc.boolean(),
          secret,
          fc.record({ username: fc.string({ maxLength: 80 }), userId: fc.string({ maxLength: 80 }), ip: fc.string({ maxLength: 50 }) }),
          (type, loginType, ok, s, known) => {
            const extra = Object.fromEntries(planted.map((k) => [k, k === 'headers' ? { authorization: `Bearer ${s}` } : s]));
            const input = { type, loginType, outcome: ok ? 'success' : 'failure', ...known, tokenId: s, ...extra } as SecurityEventInput;
            const written = JSON.stringify(eventOf(input, 'id', 1, new BowserUserAgentParser().parse(`Mozilla/5.0 ${s}`)));
            assert.ok(!written.includes(s), written);
            for (const k of planted) assert.ok(!written.includes(`"${k}"`), `${k} in ${written}`);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
