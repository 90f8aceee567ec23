/** A catch-all svc.trusted-proxies lets any client name its own IP: refused in prod, a warning elsewhere. */
import assert from 'node:assert/strict';
import { catchAllFamilies } from '../../src/adapters/koa/client-ip';
import type { Logger } from '../../src/application/ports/logger';
import { ConfigError, loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { prodEnv } from '../support/prod-env';

const CATCH_ALL = ['0.0.0.0/0', '::/0', '::ffff:0:0/96', '203.0.113.9/0', '0.0.0.0/1,128.0.0.0/1', '10.0.0.1,::/0'];
const NARROW = ['', '10.0.0.0/8', '127.0.0.1,::1', '0.0.0.0/1', '0.0.0.0/1,128.0.0.0/2', 'fd00::/8,10.0.0.0/24'];

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
    for (const narrow of NARROW) assert.deepEqual(catchAllFamilies(narrow === '' ? [] : narrow.split(',')), [], narrow);
  });

  it('prod refuses to start with one, naming svc.trusted-proxies', () => {
    for (const proxies of CATCH_ALL) {
      const problems = problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: proxies }));
      assert.equal(problems.length, 1, `${proxies}: ${problems.join('\n')}`);
      assert.match(problems[0] ?? '', /^svc\.trusted-proxies \(SVC_TRUSTED_PROXIES\): .*every IPv[46] address/);
    }
    for (const proxies of NARROW) assert.deepEqual(problemsOf(prodEnv({ SVC_TRUSTED_PROXIES: proxies })), [], proxies);
  });

  it('dev starts with one and warns once, naming the key; a narrow list gives no warning', async () => {
    for (const [proxies, expected] of [['0.0.0.0/0', 1], ['10.0.0.0/8', 0]] as const) {
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
