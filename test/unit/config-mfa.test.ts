/**
 * The second-factor key's configuration rules: the format of both keys, a previous key only beside a current one, a
 * prod start with roles that must have a factor refuses without the key (naming it), and prod without the key (and
 * no such role) starts with a warning.
 */
import assert from 'node:assert/strict';
import type { Logger } from '../../src/application/ports/logger';
import { configWarnings, loadConfig } from '../../src/main/config';
import { totpSettingsOf } from '../../src/main/container';
import { emptyConfigDir, problemsOf } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';

const KEY = 'SVC_MFA_ENCRYPTION_KEY';
const NAMED = /^svc\.mfa\.encryption-key \(SVC_MFA_ENCRYPTION_KEY\): /;
const withoutKey = (extra: Record<string, string> = {}): Record<string, string> => {
  const { [KEY]: _key, ...rest } = prodEnv(extra);
  return rest;
};
const hex = 'a1'.repeat(32);
/** A directory that keeps second factors (prod refuses required roles with the file directory). */
const SQL = {
  SVC_DIRECTORY: 'sql',
  SVC_DATASOURCE_URL: 'mysql://127.0.0.1:3306/authguard',
  SVC_DATASOURCE_USERNAME: 'authguard',
  SVC_DATASOURCE_PASSWORD: 'a-long-database-password-0123',
};

describe('configuration: svc.mfa.encryption-key', () => {
  it('a prod start with svc.mfa.required-roles and no key is refused, naming the key and the roles', () => {
    const problems = problemsOf(withoutKey({ SVC_MFA_REQUIRED_ROLES: 'admin,ops', ...SQL }));
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', NAMED);
    assert.match(problems[0] ?? '', /required in prod while svc\.mfa\.required-roles is set \(admin, ops\)/);
  });

  it('prod without the key and without required roles starts, with a warning that enrolment answers 503', () => {
    const config = loadConfig({ env: withoutKey({ SVC_SECURITY_SIGN_SCHEMES: '{"partner":"rfc9421"}' }), configDir: emptyConfigDir() });
    const warnings = configWarnings(config).filter((w) => w.startsWith('svc.mfa.'));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0] ?? '', /^svc\.mfa\.encryption-key \(SVC_MFA_ENCRYPTION_KEY\) is not set in prod: .*503 mfa-unavailable/);
  });

  it('a prod start with svc.mfa.required-roles and svc.directory=file is refused, saying why (it keeps no second factor)', () => {
    const problems = problemsOf(prodEnv({ SVC_MFA_REQUIRED_ROLES: 'admin', SVC_DIRECTORY: 'file' }));
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /^svc\.mfa\.required-roles \(SVC_MFA_REQUIRED_ROLES\): cannot be met in prod while svc\.directory/);
    assert.match(problems[0] ?? '', /directory-read-only.*use svc\.directory=sql/);
    for (const profile of ['dev', 'test'])
      loadConfig({ env: { APP_PROFILE: profile, SVC_MFA_REQUIRED_ROLES: 'admin', SVC_DIRECTORY: 'file' }, configDir: emptyConfigDir() });
  });

  it('prod with the key and required roles starts without an mfa warning; dev and test need no key', () => {
    const config = loadConfig({ env: prodEnv({ SVC_MFA_REQUIRED_ROLES: 'admin', ...SQL }), configDir: emptyConfigDir() });
    assert.deepEqual(
      configWarnings(config).filter((w) => w.startsWith('svc.mfa.')),
      [],
    );
    for (const profile of ['dev', 'test']) {
      const c = loadConfig({ env: { APP_PROFILE: profile, SVC_MFA_REQUIRED_ROLES: 'admin' }, configDir: emptyConfigDir() });
      assert.deepEqual(
        configWarnings(c).filter((w) => w.startsWith('svc.mfa.')),
        [],
      );
    }
  });

  it('a key that is not 32 bytes is refused in every profile, without echoing it', () => {
    for (const env of [{ APP_PROFILE: 'test', [KEY]: 'not-a-key' }, prodEnv({ [KEY]: 'ab'.repeat(31) })]) {
      const problems = problemsOf(env);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^svc\.mfa\.encryption-key \(SVC_MFA_ENCRYPTION_KEY\): expected 32 bytes/);
      assert.ok(!(problems[0] ?? '').includes(env[KEY] ?? '?'));
    }
    const previous = problemsOf({ APP_PROFILE: 'test', [KEY]: hex, SVC_MFA_PREVIOUS_ENCRYPTION_KEY: 'short' });
    assert.match(previous[0] ?? '', /^svc\.mfa\.previous-encryption-key \(SVC_MFA_PREVIOUS_ENCRYPTION_KEY\): expected 32 bytes/);
  });

  it('a previous key without a current one is refused', () => {
    const problems = problemsOf({ APP_PROFILE: 'test', SVC_MFA_PREVIOUS_ENCRYPTION_KEY: hex });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /^svc\.mfa\.previous-encryption-key \(SVC_MFA_PREVIOUS_ENCRYPTION_KEY\): set without svc\.mfa/);
  });

  describe('the keys the TOTP factors get (totpSettingsOf)', () => {
    const load = (env: Record<string, string>) => loadConfig({ env, configDir: emptyConfigDir() });

    it('the configured key, then the previous one (hex or base64), and the issuer from svc.webauthn.rp-name', () => {
      const previous = Buffer.alloc(32, 7);
      const s = totpSettingsOf(
        load(prodEnv({ [KEY]: hex, SVC_MFA_PREVIOUS_ENCRYPTION_KEY: previous.toString('base64'), SVC_WEBAUTHN_RP_NAME: 'Acme' })),
      );
      assert.deepEqual(s.encryptionKeys, [Buffer.from(hex, 'hex'), previous]);
      assert.equal(s.issuer, 'Acme');
    });

    it('prod without a key: no key (enrolment answers 503), and no error at start', () => {
      assert.deepEqual(totpSettingsOf(load(withoutKey())).encryptionKeys, []);
    });

    it('dev and test without a key: one ephemeral key per configuration, and one warning in dev', () => {
      const warnings: string[] = [];
      const log: Logger = {
        debug: () => undefined,
        info: () => undefined,
        error: () => undefined,
        warn: (_o, m) => warnings.push(m ?? ''),
      };
      const dev = load({ APP_PROFILE: 'dev' });
      const a = totpSettingsOf(dev, log).encryptionKeys;
      assert.equal(a.length, 1);
      assert.equal(a[0]?.length, 32);
      assert.deepEqual(totpSettingsOf(dev, log).encryptionKeys, a, 'both apps of a process share it');
      assert.notDeepEqual(totpSettingsOf(load({ APP_PROFILE: 'dev' })).encryptionKeys, a);
      const mine = warnings.filter((w) => w.startsWith('svc.mfa.encryption-key is not set'));
      assert.equal(mine.length, 1, warnings.join('\n'));
      assert.match(mine[0] ?? '', /ephemeral/);
      const test: string[] = [];
      totpSettingsOf(load({ APP_PROFILE: 'test' }), { ...log, warn: (_o, m) => test.push(m ?? '') });
      assert.deepEqual(test, [], 'test is quiet');
    });
  });
});
