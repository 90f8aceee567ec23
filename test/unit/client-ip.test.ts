import assert from 'node:assert/strict';
import { parseCanonicalIp, parseCidrList, rateLimitSubjectOf, resolveClientIp } from '../../src/adapters/koa/client-ip';

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
  it("a hop with a port (ip:port, [ipv6]:port) yields its address, not the proxy's", () => {
    const trusted = parseCidrList(['10.0.0.0/8', 'fd00::/8']);
    assert.equal(resolveClientIp('10.1.1.1', '198.51.100.9:41234', trusted), '198.51.100.9');
    assert.equal(resolveClientIp('10.1.1.1', '[2001:db8::7]:443', trusted), '2001:db8::7');
    assert.equal(resolveClientIp('10.1.1.1', '[2001:db8::8]', trusted), '2001:db8::8');
    assert.equal(resolveClientIp('10.1.1.1', '[::ffff:198.51.100.10]:8080', trusted), '198.51.100.10');
    assert.equal(
      resolveClientIp('10.1.1.1', '198.51.100.9:1, 10.2.2.2:3128, [fd00::1]:80', trusted),
      '198.51.100.9',
      'trusted hops with ports are skipped',
    );
    assert.equal(resolveClientIp('10.1.1.1', '10.3.3.3:80', trusted), '10.3.3.3', 'only trusted hops: the left-most');
    assert.equal(resolveClientIp('192.0.2.1', '198.51.100.9:41234', trusted), '192.0.2.1', 'an untrusted peer is still the client');
    for (const garbage of ['198.51.100.9:', '198.51.100.9:port', '2001:db8::7:443:x', '[2001:db8::7]x', 'host.example:80']) {
      assert.equal(resolveClientIp('10.1.1.1', garbage, trusted), '10.1.1.1', garbage);
    }
  });
  it('X-Forwarded-For hops count only as canonical text: a dotted quad or RFC 5952 IPv6; anything else is the peer', () => {
    const trusted = parseCidrList(['10.0.0.0/8']);
    const canonical: Array<[string, string]> = [
      ['203.0.113.13', '203.0.113.13'],
      ['0.0.0.0', '0.0.0.0'],
      ['255.255.255.255', '255.255.255.255'],
      ['2001:db8::1', '2001:db8::1'],
      ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
      ['::1', '::1'],
      ['::ffff:198.51.100.10', '198.51.100.10'],
      ['[2001:db8::1]:443', '2001:db8::1'],
      ['203.0.113.13:8080', '203.0.113.13'],
    ];
    for (const [hop, client] of canonical) assert.equal(resolveClientIp('10.1.1.1', hop, trusted), client, hop);
    const loose = [
      '0203.0.113.13', // inet_aton reads the octal 0203 as 131
      '1.2.3', // inet_aton: 1.2.0.3
      '0x7f.1', // inet_aton: 127.0.0.1
      '2130706433', // a whole address as one number
      '203.0.113.013',
      '203.0.113.256',
      '2001:DB8::1', // RFC 5952 §4.3: lower case
      '2001:db8:0:0::1', // §4.2.1: the longest zero run is compressed
      '2001:db8::0:1:1:1:1:1', // §4.2.2: never :: for a single zero group
      '2001:0db8::1', // §4.1: no leading zeros
      'fe80::1%eth0',
      '[2001:DB8::1]:443',
      '::ffff:0203.0.113.13',
      '0203.0.113.13:80',
    ];
    for (const hop of loose) {
      assert.equal(resolveClientIp('10.1.1.1', hop, trusted), '10.1.1.1', hop);
      assert.equal(resolveClientIp('10.1.1.1', `${hop}, 10.2.2.2`, trusted), '10.1.1.1', `${hop} behind a second trusted proxy`);
      assert.equal(parseCanonicalIp(hop.replace(/^\[|\]:\d+$/g, '').replace(/:80$/, '')), null, hop);
    }
  });
});
