import assert from 'node:assert/strict';
import { parseCidrList, rateLimitSubjectOf, resolveClientIp } from '../../src/adapters/koa/client-ip';

describe('client IP and rate-limit subjects', () => {
  it('IPv4 counts per address; IPv6 per /64 (one subscriber holds a whole /64)', () => {
    assert.equal(rateLimitSubjectOf('203.0.113.7'), '203.0.113.7');
    assert.equal(rateLimitSubjectOf('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(rateLimitSubjectOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(rateLimitSubjectOf('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.notEqual(rateLimitSubjectOf('2001:db8:1:3::1'), rateLimitSubjectOf('2001:db8:1:2::1'));
    assert.equal(rateLimitSubjectOf('unknown'), 'unknown');
  });
  it('walks X-Forwarded-For right to left only behind a trusted proxy', () => {
    const trusted = parseCidrList(['10.0.0.0/8']);
    assert.equal(resolveClientIp('10.1.1.1', '198.51.100.9, 10.2.2.2', trusted), '198.51.100.9');
    assert.equal(resolveClientIp('192.0.2.1', '198.51.100.9', trusted), '192.0.2.1');
  });
});
