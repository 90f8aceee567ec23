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
  it('a hop with a port (ip:port, [ipv6]:port) yields its address, not the proxy\'s', () => {
    const trusted = parseCidrList(['10.0.0.0/8', 'fd00::/8']);
    assert.equal(resolveClientIp('10.1.1.1', '198.51.100.9:41234', trusted), '198.51.100.9');
    assert.equal(resolveClientIp('10.1.1.1', '[2001:db8::7]:443', trusted), '2001:db8::7');
    assert.equal(resolveClientIp('10.1.1.1', '[2001:db8::8]', trusted), '2001:db8::8');
    assert.equal(resolveClientIp('10.1.1.1', '[::ffff:198.51.100.10]:8080', trusted), '198.51.100.10');
    assert.equal(resolveClientIp('10.1.1.1', '198.51.100.9:1, 10.2.2.2:3128, [fd00::1]:80', trusted), '198.51.100.9', 'trusted hops with ports are skipped');
    assert.equal(resolveClientIp('10.1.1.1', '10.3.3.3:80', trusted), '10.3.3.3', 'only trusted hops: the left-most');
    assert.equal(resolveClientIp('192.0.2.1', '198.51.100.9:41234', trusted), '192.0.2.1', 'an untrusted peer is still the client');
    for (const garbage of ['198.51.100.9:', '198.51.100.9:port', '2001:db8::7:443:x', '[2001:db8::7]x', 'host.example:80']) {
      assert.equal(resolveClientIp('10.1.1.1', garbage, trusted), '10.1.1.1', garbage);
    }
  });
});
