/**
 * A catch-all svc.trusted-proxies lets any client name its own IP: refused in prod, a warning elsewhere.
 * Prod also refuses ranges wider than /8 (IPv4) or /32 (IPv6) unless svc.trusted-proxies-allow-wide=true.
 */
import assert from 'node:assert/strict';
import { catchAllFamilies, wideRanges } from '../../src/adapters/koa/client-ip';
import type { Logger } from '../../src/application/ports/logger';
import { ConfigError, loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { prodEnv } from '../support/prod-env';

const CATCH_ALL = ['0.0.0.0/0', '::/0', '::ffff:0:0/96', '203.0.113.9/0', '0.0.0.0/1,128.0.0.0/1', '10.0.0.1,::/0'];
/** Not catch-all, but wider than /8 (IPv4) or /32 (IPv6) somewhere. */
const WIDE = [
  '0.0.0.0/1',
  '0.0.0.0/1,128.0.0.0/2',
  'fd00::/8,10.0.0.0/24',
  '2000::/3',
  '10.0.0.0/7',
  '::ffff:0:0/103',
  '2001:db8::/31,127.0.0.1',
];
/** Neither catch-all nor wide. */
const NARROW = ['', '10.0.0.0/8', '127.0.0.1,::1', 'fd00::/32,10.0.0.0/24', '2001:db8::/48', '::ffff:10.0.0.0/104', '192.0.2.7'];

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig({ env });
    return [];
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return e.problems;
  }
}

describe('catch-all trusted proxies', () => {
  it('catchAllFamilies names the families a list covers whole, alone or together', () => {
    assert.deepEqual(catchAllFamilies(['0.0.0.0/0']), ['IPv4']);
    assert.deepEqual(catchAllFamilies(['::/0']), ['IPv6']);
    assert.deepEqual(catchAllFamilies(['::ffff:0:0/96']), ['IPv4']);
    assert.deepEqual(catchAllFamilies(['0.0.0.0/1', '128.0.0.0/1', '::/1', '8000::/1']), ['IPv4', 'IPv6']);
    for (const narrow of [...NARROW, ...WIDE]) assert.deepEqual(catchAllFamilies(narrow === '' ? [] : narrow.split(',')), [], narrow);
  });

  it('wideRanges names the entries wider than /8 (IPv4) or /32 (IPv6), IPv4-mapped ranges as IPv4', () => {
    assert.deepEqual(wideRanges(['0.0.0.0/1', '10.0.0.0/8', '2000::/3', 'fd00::/32', '::ffff:0:0/103', '::ffff:10.0.0.0/104']), [
      '0.0.0.0/1',
      '2000::/3',
      '::ffff:0:0/103',
    ]);
    for (const narrow of NARROW) assert.deepEqual(wideRanges(narrow === '' ? [] : narrow.split(',')), [], narrow);
  });

  it('prod refuses to start with one, naming svc.trusted-proxies', () => {
    for (const proxies of CATCH_ALL) {
      const problems = problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: proxies }));
      assert.equal(problems.length, 1, `${proxies}: ${problems.join('\n')}`);
      assert.match(problems[0] ?? '', /^svc\.trusted-proxies \(SVC_TRUSTED_PROXIES\): .*every IPv[46] address/);
    }
    for (const proxies of NARROW) assert.deepEqual(problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: proxies })), [], proxies);
  });

  it('prod refuses a range wider than /8 (IPv4) or /32 (IPv6), naming it, the key and svc.trusted-proxies-allow-wide', () => {
    for (const proxies of WIDE) {
      const problems = problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: proxies }));
      assert.equal(problems.length, 1, `${proxies}: ${problems.join('\n')}`);
      assert.match(
        problems[0] ?? '',
        /^svc\.trusted-proxies \(SVC_TRUSTED_PROXIES\): ".*" (is|are) wider than \/8 \(IPv4\) or \/32 \(IPv6\)/,
        proxies,
      );
      assert.match(problems[0] ?? '', /svc\.trusted-proxies-allow-wide=true \(SVC_TRUSTED_PROXIES_ALLOW_WIDE\)/);
      for (const wide of wideRanges(proxies.split(','))) assert.ok(problems[0]?.includes(`"${wide}"`), `${proxies}: names ${wide}`);
    }
    assert.match(problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: '2000::/3,10.0.0.1' }))[0] ?? '', /"2000::\/3" is wider/);
  });

  it('svc.trusted-proxies-allow-wide=true lets prod start with a wide range, never with a catch-all; dev and test ignore width', () => {
    for (const proxies of WIDE)
      assert.deepEqual(problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: proxies, SVC_TRUSTED_PROXIES_ALLOW_WIDE: 'true' })), [], proxies);
    for (const proxies of CATCH_ALL) {
      const problems = problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: proxies, SVC_TRUSTED_PROXIES_ALLOW_WIDE: 'true' }));
      assert.equal(problems.length, 1, `${proxies}: ${problems.join('\n')}`);
      assert.match(problems[0] ?? '', /every IPv[46] address/);
    }
    for (const profile of ['dev', 'test']) {
      for (const proxies of WIDE)
        assert.deepEqual(problemsOf({ APP_PROFILE: profile, SVC_TRUSTED_PROXIES: proxies }), [], `${profile} ${proxies}`);
    }
    assert.equal(loadConfig({ env: { APP_PROFILE: 'test' } }).trustedProxiesAllowWide, false, 'off by default');
  });

  it('dev starts with one and warns once, naming the key; a narrow list gives no warning', async () => {
    for (const [proxies, expected] of [
      ['0.0.0.0/0', 1],
      ['10.0.0.0/8', 0],
    ] as const) {
      const warnings: string[] = [];
      const log: Logger = { debug() {}, info() {}, error() {}, warn: (_obj, msg) => void warnings.push(msg ?? '') };
      const config = loadConfig({ env: { APP_PROFILE: 'dev', SVC_TRUSTED_PROXIES: proxies, SVC_CRYPTO_WORKER_THREADS: '1' } });
      const infra = createInfrastructure(config, { log });
      await infra.close();
      const proxyWarnings = warnings.filter((w) => w.startsWith('svc.trusted-proxies (SVC_TRUSTED_PROXIES)'));
      assert.equal(proxyWarnings.length, expected, warnings.join('\n'));
    }
  });
});
