import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/main/config';
import { prodSecrets } from '../support/prod-env';

const emptyDir = () => mkdtempSync(path.join(tmpdir(), 'agcfg-'));
const PROD_SECRETS = prodSecrets();
const SQL = { SVC_DIRECTORY: 'sql', SVC_DATASOURCE_URL: 'mysql://db.internal:3306/authguard', SVC_DATASOURCE_USERNAME: 'authguard' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ env, configDir: emptyDir() });
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return [...e.problems];
  }
  return [];
}

describe('configuration: user directory and datasource', () => {
  it('defaults to the file directory and needs no datasource', () => {
    const c = loadConfig({ env: {}, configDir: emptyDir() });
    assert.equal(c.directory, 'file');
    assert.deepEqual(c.datasource, { url: '', username: '', password: '' });
  });

  it('svc.directory=sql reads the datasource settings', () => {
    const c = loadConfig({ env: { ...SQL, SVC_DATASOURCE_PASSWORD: 'pw' }, configDir: emptyDir() });
    assert.equal(c.directory, 'sql');
    assert.deepEqual(c.datasource, { url: 'mysql://db.internal:3306/authguard', username: 'authguard', password: 'pw' });
  });

  it('svc.directory=sql requires a URL and a username, naming each', () => {
    const problems = problemsOf({ SVC_DIRECTORY: 'sql' });
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems.join('\n'), /svc\.datasource\.url \(SVC_DATASOURCE_URL\)/);
    assert.match(problems.join('\n'), /svc\.datasource\.username \(SVC_DATASOURCE_USERNAME\)/);
  });

  it('rejects an unknown directory kind', () => {
    assert.match(problemsOf({ SVC_DIRECTORY: 'ldap' }).join('\n'), /svc\.directory/);
  });

  for (const [url, why] of [
    ['postgres://h/db', /scheme/],
    ['mysql://h:3306/', /no database/],
    ['mysql://u:secret@h:3306/db', /SVC_DATASOURCE_PASSWORD/],
    ['not a url', /mysql:\/\/host/],
  ] as const) {
    it(`refuses the datasource URL ${url}`, () => {
      const problems = problemsOf({ ...SQL, SVC_DATASOURCE_URL: url });
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^svc\.datasource\.url/);
      assert.match(problems[0] ?? '', why);
    });
  }

  it('accepts the JDBC and mariadb forms', () => {
    assert.deepEqual(
      problemsOf({ ...SQL, SVC_DATASOURCE_URL: 'jdbc:mysql://localhost:3306/ry-vue?useUnicode=true&characterEncoding=utf8' }),
      [],
    );
    assert.deepEqual(problemsOf({ ...SQL, SVC_DATASOURCE_URL: 'mariadb://localhost/test' }), []);
  });

  describe('prod', () => {
    it('requires svc.datasource.password when svc.directory=sql, and only that', () => {
      const problems = problemsOf({ APP_PROFILE: 'prod', SVC_STORE: 'redis', ...PROD_SECRETS, ...SQL });
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^svc\.datasource\.password \(SVC_DATASOURCE_PASSWORD\): required in prod/);
    });
    it('lists the datasource password with every other missing secret at once', () => {
      const joined = problemsOf({ APP_PROFILE: 'prod', ...SQL }).join('\n');
      for (const k of ['svc.rsa-private-key', 'svc.redis.url', 'svc.security.sign.apps', 'svc.datasource.password'])
        assert.match(joined, new RegExp(k.replace(/\./g, '\\.')));
    });
    it('starts with the password supplied', () => {
      assert.equal(
        loadConfig({
          env: { APP_PROFILE: 'prod', SVC_STORE: 'redis', ...PROD_SECRETS, ...SQL, SVC_DATASOURCE_PASSWORD: 'x' },
          configDir: emptyDir(),
        }).directory,
        'sql',
      );
    });
    it('does not require it with the file directory', () => {
      assert.equal(
        loadConfig({ env: { APP_PROFILE: 'prod', SVC_STORE: 'redis', ...PROD_SECRETS }, configDir: emptyDir() }).directory,
        'file',
      );
    });
  });
});
