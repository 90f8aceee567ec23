import { BowserUserAgentParser } from '../../src/adapters/audit/bowser-user-agent-parser';
import assert from 'node:assert/strict';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import type { AuthSettings } from '../../src/application/auth/auth-settings';
import { IssueTokens } from '../../src/application/auth/issue-tokens';
import { RefreshToken } from '../../src/application/auth/refresh-token';
import { RefreshTokenRegistry } from '../../src/application/session/refresh-token-registry';
import { SessionManager, SessionManagers } from '../../src/application/session/session-manager';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { type SessionSettings } from '../../src/application/session/session-settings';
import { ChangeUserRoles } from '../../src/application/users/change-user-roles';
import { DeviceCookies } from '../../src/application/auth/device-cookies';
import { Delegation, type Actor } from '../../src/application/users/delegation';
import { EndUserSessions } from '../../src/application/users/end-user-sessions';
import type { RequiredActions } from '../../src/application/mfa/required-actions';
import { requiredActionsOf } from '../../src/application/users/principal';
import { DisableUser } from '../../src/application/users/disable-user';
import { principalOf } from '../../src/application/users/principal';
import { ResyncUserSessions } from '../../src/application/users/resync-user-sessions';
import { isDomainError } from '../../src/domain/errors';
import { DEFAULT_SESSION_POLICY } from '../../src/domain/session';
import { FIXTURE } from '../contract/user-directory.contract';
import { FakeClock } from '../support/fake-clock';
import { memoryDirectoryWith, type MemoryUserDirectory } from '../support/memory-user-directory';

/** The required actions without second factors: the account's own (must change password). */
const accountActions = {
  of: async (_type: string, user: Parameters<typeof requiredActionsOf>[0]) => requiredActionsOf(user),
} as unknown as RequiredActions;

describe('user administration use cases (live sessions follow the directory)', () => {
  let dir: MemoryUserDirectory;
  let managers: SessionManagers;
  let admin: SessionManager;
  let web: SessionManager;
  let annId: string;
  let clock: FakeClock;
  let tokens: IssueTokens;
  let registry: RefreshTokenRegistry;
  let delegation: Delegation;
  let devices: DeviceCookies;
  /** The built-in super admin (`root`, role admin): every delegation check passes for it. */
  let rootActor: Actor;

  beforeEach(async () => {
    clock = new FakeClock();
    const store = new InMemoryBackend(clock);
    const policy: SessionSettings = { ...DEFAULT_SESSION_POLICY, shareSecret: '' };
    managers = new SessionManagers(policy, store.sessions, clock, silentLogger);
    admin = managers.get('admin');
    web = managers.get('web');
    const settings = { refreshTokenTtlSeconds: 2592000, refreshTokenAbsoluteTtlSeconds: 90 * 86400, timeZone: 'UTC' } as AuthSettings;
    registry = new RefreshTokenRegistry(store.kv, settings, clock, managers);
    tokens = new IssueTokens(managers, registry, settings, new BowserUserAgentParser());
    dir = await memoryDirectoryWith(FIXTURE.roles, FIXTURE.users);
    const ann = await dir.findByUsername('ann');
    assert.ok(ann);
    annId = ann.id;
    delegation = new Delegation(dir, dir);
    devices = new DeviceCookies(
      clock,
      {
        deviceCookie: { secrets: ['device-cookie-key-0123456789abcdef'], maxAgeSeconds: 3600, secure: false, path: '/' },
      } as unknown as AuthSettings,
      store.kv,
    );
    rootActor = { userId: (await dir.findByUsername('root'))!.id, permissions: ['*:*:*'] };
  });

  const loginAnn = async () => (await admin.login(principalOf((await dir.findById(annId))!))).token;
  const permsOf = async (token: string) => {
    const r = await admin.resolveToken(token);
    return r.ok ? [...r.session.record.principal.permissions] : r.reason;
  };

  it('ChangeUserRoles updates every live admin session of the user, and no one else', async () => {
    const [t1, t2] = [await loginAnn(), await loginAnn()];
    const root = (await admin.login(principalOf((await dir.findByUsername('root'))!))).token;
    const webToken = (await web.login({ userId: annId, username: 'ann-member', roles: [], permissions: [] })).token;

    const out = await new ChangeUserRoles(dir, managers, delegation).execute({ actor: rootActor, userId: annId, roles: ['editor'] });
    assert.deepEqual(out.sessions, { action: 'updated', sessions: 2 });
    assert.deepEqual(out.user.permissions, ['system:user:edit']);
    assert.deepEqual(await permsOf(t1), ['system:user:edit']);
    assert.deepEqual(await permsOf(t2), ['system:user:edit']);
    assert.deepEqual(await permsOf(root), ['*:*:*']);
    const w = await web.resolveToken(webToken);
    assert.ok(w.ok && w.session.record.principal.permissions.length === 0, 'a web session of the same id is untouched');
  });

  it('ChangeUserRoles: unknown role -> validation-failed at /roles; unknown user -> user-not-found', async () => {
    const uc = new ChangeUserRoles(dir, managers, delegation);
    await assert.rejects(
      uc.execute({ actor: rootActor, userId: annId, roles: ['nope'] }),
      (e) => isDomainError(e) && e.reason === 'validation-failed' && e.extras.errors?.[0]?.pointer === '/roles',
    );
    await assert.rejects(
      uc.execute({ actor: rootActor, userId: '424242', roles: [] }),
      (e) => isDomainError(e) && e.reason === 'user-not-found',
    );
  });

  it('DisableUser disables the account and kicks out its sessions', async () => {
    const t = await loginAnn();
    const out = await new DisableUser(dir, clock, delegation, new EndUserSessions(managers, registry, devices)).execute({
      actor: rootActor,
      userId: annId,
    });
    assert.equal(out.sessionsEnded, 1);
    assert.equal((await dir.findById(annId))?.enabled, false);
    assert.equal(await permsOf(t), 'token-kicked-out');
    await assert.rejects(
      new DisableUser(dir, clock, delegation, new EndUserSessions(managers, registry, devices)).execute({
        actor: rootActor,
        userId: '424242',
      }),
      (e) => isDomainError(e) && e.reason === 'user-not-found',
    );
  });

  it('DisableUser revokes the account’s device cookies (a re-enabled account starts without exemptions)', async () => {
    const cookie = devices.issue('admin', 'ann').value;
    assert.notEqual(await devices.verify('admin', 'ann', [cookie]), null);
    clock.advance(1);
    await new DisableUser(dir, clock, delegation, new EndUserSessions(managers, registry, devices)).execute({
      actor: rootActor,
      userId: annId,
    });
    await dir.setStatus(annId, { enabled: true });
    assert.equal(await devices.verify('admin', 'ann', [cookie]), null);
  });

  it('DisableUser also refuses every earlier refresh token, even of a lapsed login, after a re-enable', async () => {
    const ann = (await dir.findById(annId))!;
    const lapsed = await tokens.execute({ loginType: 'admin', principal: principalOf(ann), client: {} });
    clock.advance((DEFAULT_SESSION_POLICY.timeout + 2 * 3600) * 1000); // the access session is gone from every index
    await new DisableUser(dir, clock, delegation, new EndUserSessions(managers, registry, devices)).execute({
      actor: rootActor,
      userId: annId,
    });
    await dir.setStatus(annId, { enabled: true });
    await assert.rejects(
      new RefreshToken(dir, managers, registry, tokens, silentLogger, clock, accountActions).execute({
        loginType: 'admin',
        refreshToken: lapsed.refreshToken ?? '',
        client: {},
      }),
      (e) => isDomainError(e) && e.reason === 'refresh-token-invalid',
    );
    clock.advance(1);
    const fresh = await tokens.execute({ loginType: 'admin', principal: principalOf(ann), client: {} });
    const next = await new RefreshToken(dir, managers, registry, tokens, silentLogger, clock, accountActions).execute({
      loginType: 'admin',
      refreshToken: fresh.refreshToken ?? '',
      client: {},
    });
    assert.ok((await admin.resolveToken(next.accessToken)).ok, 'a login after the re-enable refreshes normally');
  });

  it('ResyncUserSessions re-reads the directory: changed roles update, disabled or deleted users end', async () => {
    const t = await loginAnn();
    await dir.setRoles(annId, ['auditor']); // a change made behind the service's back
    assert.deepEqual(await new ResyncUserSessions(dir, managers).execute({ userId: annId }), {
      action: 'updated',
      sessions: 1,
      userFound: true,
    });
    assert.deepEqual(await permsOf(t), ['monitor:log:list', 'monitor:online:list']);
    await dir.setStatus(annId, { enabled: false, reason: null, until: null });
    assert.deepEqual(await new ResyncUserSessions(dir, managers).execute({ userId: annId }), {
      action: 'ended',
      sessions: 1,
      userFound: true,
    });
    assert.equal(await permsOf(t), 'token-kicked-out');
    const ghost = await admin.login({ userId: '999', username: 'ghost', roles: [], permissions: [] });
    assert.deepEqual(await new ResyncUserSessions(dir, managers).execute({ userId: '999' }), {
      action: 'ended',
      sessions: 1,
      userFound: false,
    });
    assert.equal((await admin.resolveToken(ghost.token)).ok, false);
  });
});
