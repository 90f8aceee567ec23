/**
 * Prod requires svc.security.sign.public-urls for every served app while a signing app may sign
 * with RFC 9421: without it `@target-uri` comes from the client's Host header, so a request signed
 * for another host, or for the other app, verifies. Dev and test keep the Host fallback.
 */
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { ConfigError, loadConfig, servedAppChecks } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { buildWebApp } from '../../src/main/web';
import { emptyConfigDir } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';

const RFC9421 = { SVC_SECURITY_SIGN_SCHEMES: '{"partner":"rfc9421"}' };
const KEY = /^svc\.security\.sign\.public-urls \(SVC_SECURITY_SIGN_PUBLIC_URLS\): required in prod for the /;

const config = (env: Record<string, string>) => loadConfig({ env, configDir: emptyConfigDir() });

describe('prod requires svc.security.sign.public-urls for the served apps of an rfc9421 signer', () => {
  it('refuses each served app without a public URL, naming the key, the env var, the apps and the signer', () => {
    const c = config(prodEnv(RFC9421));
    const both = servedAppChecks(c, ['admin', 'web']);
    assert.equal(both.length, 1, both.join('\n'));
    assert.match(both[0] ?? '', KEY);
    assert.match(both[0] ?? '', /the admin and web apps while "partner" may sign with rfc9421/);
    assert.match(servedAppChecks(c, ['web'])[0] ?? '', /for the web app while "partner"/);
    assert.match(servedAppChecks(c, ['admin'])[0] ?? '', /for the admin app while "partner"/);
  });

  it("each served app needs its own URL: the other app's does not do", () => {
    const webOnly = config(prodEnv({ ...RFC9421, SVC_SECURITY_SIGN_PUBLIC_URLS: '{"web":"https://api.example.com"}' }));
    assert.deepEqual(servedAppChecks(webOnly, ['web']), []);
    assert.match(servedAppChecks(webOnly, ['admin', 'web'])[0] ?? '', /for the admin app while/);
    const both = config(
      prodEnv({ ...RFC9421, SVC_SECURITY_SIGN_PUBLIC_URLS: '{"web":"https://api.example.com","admin":"https://admin.example.com"}' }),
    );
    assert.deepEqual(servedAppChecks(both, ['admin', 'web']), []);
  });

  it('an app migrating (v1,rfc9421) counts; v1-only apps, signing off, and dev/test do not require it', () => {
    assert.equal(servedAppChecks(config(prodEnv({ SVC_SECURITY_SIGN_SCHEMES: '{"partner":"v1,rfc9421"}' })), ['web']).length, 1);
    assert.deepEqual(servedAppChecks(config(prodEnv()), ['admin', 'web']), [], 'v1 only (the default)');
    assert.deepEqual(servedAppChecks(config(prodEnv({ SVC_SECURITY_SIGN_SCHEMES: '{"partner":"v1"}' })), ['admin', 'web']), []);
    assert.deepEqual(
      servedAppChecks(config(prodEnv({ ...RFC9421, SVC_SECURITY_SIGN_ENABLED: 'false' })), ['admin', 'web']),
      [],
      'signing off',
    );
    for (const profile of ['dev', 'test']) {
      const c = config({ APP_PROFILE: profile, SVC_SECURITY_SIGN_APPS: '{"partner":"0123456789abcdef0123"}', ...RFC9421 });
      assert.deepEqual(servedAppChecks(c, ['admin', 'web']), [], `${profile} keeps the Host fallback`);
    }
  });

  it('building a prod app without its public URL is refused with the same problem', async () => {
    const c = config(prodEnv({ ...RFC9421, SVC_CRYPTO_WORKER_THREADS: '1' }));
    const infra = createInfrastructure(c, { log: silentLogger });
    try {
      assert.throws(
        () => buildWebApp(c, infra),
        (e) =>
          e instanceof ConfigError && e.problems.length === 1 && KEY.test(e.problems[0] ?? '') && (e.problems[0] ?? '').includes('web app'),
      );
    } finally {
      await infra.close();
    }
  });
});
