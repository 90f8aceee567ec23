/** The key of the signed idempotency tokens: required in prod, generated per configuration in dev/test, rotatable. */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signToken, verifyToken } from '../../src/application/idempotency/one-time-token';
import type { Logger } from '../../src/application/ports/logger';
import { ConfigError, loadConfig } from '../../src/main/config';
import { idempotencySettingsOf } from '../../src/main/container';
import { prodEnv } from '../support/prod-env';

const KEY = 'idempotency-token-key-0123456789-current';
const OLD = 'idempotency-token-key-0123456789-previous';
const emptyDir = () => mkdtempSync(path.join(tmpdir(), 'agidem-'));

describe('svc.idempotency.token-secret', () => {
  it('prod: refused without it, naming the key; with it (and the previous one) both verify, the current one signs', () => {
    const env = prodEnv();
    delete env.SVC_IDEMPOTENCY_TOKEN_SECRET;
    assert.throws(
      () => loadConfig({ env, configDir: emptyDir() }),
      (e) =>
        e instanceof ConfigError &&
        e.problems.length === 1 &&
        /^svc\.idempotency\.token-secret \(SVC_IDEMPOTENCY_TOKEN_SECRET\): required in prod/.test(e.problems[0] ?? ''),
    );
    const config = loadConfig({
      env: prodEnv({ SVC_IDEMPOTENCY_TOKEN_SECRET: KEY, SVC_IDEMPOTENCY_TOKEN_PREVIOUS_SECRET: OLD }),
      configDir: emptyDir(),
    });
    const { tokenSecrets } = idempotencySettingsOf(config);
    assert.deepEqual(tokenSecrets, [KEY, OLD]);
    const before = signToken([OLD], 'web', Date.now() + 60_000, undefined);
    assert.ok(verifyToken(tokenSecrets, 'web', before), 'a token of the previous key verifies after the rotation');
    assert.ok(verifyToken([KEY], 'web', signToken(tokenSecrets, 'web', Date.now() + 60_000, 'tid')), 'new tokens use the current key');
    assert.equal(verifyToken([KEY], 'web', before), null, 'once the previous key is dropped its tokens are refused');
    assert.equal(verifyToken(tokenSecrets, 'admin', before), null, 'another app (scope) refuses it');
  });

  it('dev without a key: one random key per configuration (both apps share it), with one warning that says instances must share it', () => {
    const warnings: string[] = [];
    const log: Logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (_o, msg) => warnings.push(msg ?? ''),
    };
    const config = loadConfig({ env: { APP_PROFILE: 'dev' }, configDir: emptyDir() });
    const a = idempotencySettingsOf(config, log).tokenSecrets;
    assert.equal(a.length, 1);
    assert.ok((a[0] ?? '').length >= 32);
    assert.deepEqual(idempotencySettingsOf(config, log).tokenSecrets, a);
    assert.notDeepEqual(idempotencySettingsOf(loadConfig({ env: { APP_PROFILE: 'dev' }, configDir: emptyDir() })).tokenSecrets, a);
    const mine = warnings.filter((w) => /svc\.idempotency\.token-secret/.test(w));
    assert.equal(mine.length, 1);
    assert.match(mine[0] ?? '', /instances/);
  });

  it('refuses a key shorter than 32 characters, naming the key', () => {
    for (const [env, key] of [
      ['SVC_IDEMPOTENCY_TOKEN_SECRET', 'svc.idempotency.token-secret'],
      ['SVC_IDEMPOTENCY_TOKEN_PREVIOUS_SECRET', 'svc.idempotency.token-previous-secret'],
    ] as const) {
      assert.throws(
        () => loadConfig({ env: { APP_PROFILE: 'dev', [env]: 'short' }, configDir: emptyDir() }),
        (e) => e instanceof ConfigError && e.problems.length === 1 && (e.problems[0] ?? '').startsWith(`${key} (${env}): shorter than 32`),
      );
    }
  });
});
