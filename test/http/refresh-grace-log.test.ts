/**
 * A refresh token presented again inside the reuse grace (two tabs refreshing at once, or a thief
 * racing the owner) is refused without revoking its family, and leaves a warning naming the family
 * id, never the token.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import request from 'supertest';
import type { Logger } from '../../src/application/ports/logger';
import { REUSE_GRACE_MS } from '../../src/application/session/refresh-token-registry';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth, testConfig } from '../support/apps';
import { FakeClock } from '../support/fake-clock';

interface Line {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

describe('refresh inside the reuse grace is logged', () => {
  let infra: Infrastructure;
  const lines: Line[] = [];
  const clock = new FakeClock(Date.now());
  const log: Logger = {
    debug: (obj, msg) => void lines.push({ level: 'debug', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
    info: (obj, msg) => void lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
    warn: (obj, msg) => void lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
    error: (obj, msg) => void lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg: msg ?? '' }),
  };
  let web: ReturnType<typeof buildBoth>['web']['app'];

  before(() => {
    const config = testConfig({ 'svc.crypto.worker-threads': 1 });
    infra = createInfrastructure(config, { log, clock });
    web = buildBoth(config, infra).web.app;
  });
  after(async () => infra?.close());

  it('a second presentation within the grace: 401, the family kept, one warning with the family id and no token', async () => {
    const login = (await request(web.callback()).post('/auth/login').send({ username: 'alice', password: 'alice-pass-123' }).expect(200))
      .body as { accessToken: string; refreshToken: string };
    clock.advance(100);
    const rotated = (await request(web.callback()).post('/auth/refresh-token').send({ refreshToken: login.refreshToken }).expect(200))
      .body as { accessToken: string; refreshToken: string };
    lines.length = 0;

    clock.advance(REUSE_GRACE_MS / 2);
    const dupe = await request(web.callback()).post('/auth/refresh-token').send({ refreshToken: login.refreshToken });
    assert.equal(dupe.status, 401);
    assert.equal(dupe.body.code, 'refresh-token-invalid');
    await request(web.callback()).get('/user/profile').set('Authorization', `Bearer ${rotated.accessToken}`).expect(200);

    const warnings = lines.filter((l) => l.level === 'warn');
    assert.equal(warnings.length, 1, JSON.stringify(lines));
    const [warning] = warnings as [Line];
    assert.match(warning.msg, /reuse grace/);
    assert.equal(warning.obj.loginType, 'web');
    assert.match(String(warning.obj.family), /^\d+\.[A-Za-z0-9_-]{22}$/);
    assert.ok(login.refreshToken.startsWith(`${String(warning.obj.family)}.`), 'the family the token names');
    const text = JSON.stringify(lines);
    // a refresh token names its family: what must not be logged is its secret (the part after the last dot)
    const secrets = [login.refreshToken, rotated.refreshToken].map((t) => t.slice(t.lastIndexOf('.') + 1));
    for (const secret of [...secrets, login.accessToken, rotated.accessToken]) assert.ok(!text.includes(secret), 'no token in the log');
  });

  it('an unknown token is refused without a grace warning', async () => {
    lines.length = 0;
    await request(web.callback())
      .post('/auth/refresh-token')
      .send({ refreshToken: '0'.repeat(32) })
      .expect(401);
    assert.deepEqual(
      lines.filter((l) => l.level === 'warn'),
      [],
    );
  });
});
