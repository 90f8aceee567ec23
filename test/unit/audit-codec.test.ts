/** The Redis stream encoding of an event: shorter than its JSON, decoded to the same event, and its needles find it. */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { eventOf, SECURITY_EVENT_TYPES } from '../../src/application/audit/security-event';
import { decodeEvent, encodeEvent, needles } from '../../src/adapters/redis/audit-codec';

describe('audit event encoding (Redis)', () => {
  it('decodes to the event it encoded, every field and any text; 100 bytes or more shorter than its JSON', () => {
    const text = fc.string({ maxLength: 40 });
    fc.assert(
      fc.property(
        fc.constantFrom(...SECURITY_EVENT_TYPES),
        fc.constantFrom('admin' as const, 'web' as const),
        fc.boolean(),
        fc.record({ username: text, userId: text, actor: text, target: text, summary: text, os: text }),
        (type, loginType, ok, t) => {
          const e = eventOf(
            {
              type,
              loginType,
              outcome: ok ? 'success' : 'failure',
              reason: 'bad-credentials',
              ...t,
              action: 'user.disable',
              ip: '203.0.113.9',
              tokenId: '0123456789abcdef',
              requestId: 'req-1',
            },
            '0194b6a2-4c1e-7a3b-9f21-6d0e5c4b3a21',
            1_738_332_309_000,
            { os: t.os, browser: 'Chrome 120', deviceType: 'desktop' },
          );
          const stored = encodeEvent(e);
          assert.deepEqual(decodeEvent(stored, e.loginType, e.log), e);
          assert.ok(stored.length <= JSON.stringify(e).length - 100 + (e.log === 'operation' ? 4 : 0), stored);
          const q = { loginType: e.loginType, log: e.log, limit: 1, username: e.username, ip: e.ip, outcome: e.outcome, types: [e.type] };
          for (const n of needles(q)) assert.ok(stored.includes(n), n);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses what is not an event', () => {
    assert.equal(decodeEvent('not json', 'admin', 'login'), null);
    assert.equal(decodeEvent('{"x":1}', 'admin', 'login'), null);
  });
});
