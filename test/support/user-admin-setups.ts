/**
 * The admin app for user-administration suites on both directories and both stores: the file
 * directory on the memory store, MariaDB on Redis. Sessions are made as a login makes them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import { IssueTokens } from '../../src/application/auth/issue-tokens';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { buildAdminApp } from '../../src/main/admin';
import type { BuiltApp } from '../../src/main/operations';
import type { DirectoryFixture } from '../contract/user-directory.contract';
import { seedSqlFixture } from '../sql/fixture';
import { testConfig, testInfra } from './apps';
import { ScratchDatabase, requireMariaDb } from './mariadb';
import { requireRedis } from './services';

export interface UserAdminSetup {
  readonly app: BuiltApp;
  readonly ids: Map<string, string>;
  readonly close: () => Promise<void>;
}

/** The fixture as the file directory reads it (svc.users-file). */
function usersYaml(f: DirectoryFixture): string {
  const roles = f.roles.map(
    (r) => `  ${r.key}: { enabled: ${r.enabled}, permissions: [${r.permissions.map((p) => `'${p}'`).join(', ')}] }`,
  );
  const users = f.users.map(
    (u, i) =>
      `  - { id: ${i + 1}, username: ${u.username}, nickname: '${u.nickname}', password: '${u.passwordHash}', ` +
      `enabled: ${u.enabled}, roles: [${u.roles.join(', ')}] }`,
  );
  return ['roles:', ...roles, 'users:', ...users, ''].join('\n');
}

export function userAdminSetups(f: DirectoryFixture, label: string): Record<string, (ctx: Mocha.Context) => Promise<UserAdminSetup>> {
  return {
    'file directory, memory store': async () => {
      const dir = mkdtempSync(join(tmpdir(), `ag-${label}-`));
      const file = join(dir, 'users.yml');
      writeFileSync(file, usersYaml(f));
      const config = testConfig({ 'svc.users-file': file });
      const infra = testInfra(config, { label });
      const ids = new Map(f.users.map((u, i) => [u.username, String(i + 1)]));
      const close = async () => (await infra.dispose(), rmSync(dir, { recursive: true, force: true }));
      return { app: buildAdminApp(config, infra), ids, close };
    },
    'sql directory (MariaDB), redis store': async (ctx) => {
      await requireRedis(ctx);
      await requireMariaDb(ctx);
      const db = await ScratchDatabase.create(label);
      const ds = db.settings;
      const config = testConfig(
        {
          'svc.directory': 'sql',
          'svc.datasource.url': ds.url,
          'svc.datasource.username': ds.username,
          'svc.datasource.password': ds.password,
        },
        'redis',
      );
      const infra = testInfra(config, { label });
      const ids = await seedSqlFixture(db.pool, f);
      return { app: buildAdminApp(config, infra), ids, close: async () => (await infra.dispose(), await db.drop()) };
    },
  };
}

/** What the suites do with a setup: call it, log its users in, read its operation log. */
export function userAdminKit(s: () => UserAdminSetup) {
  const http = () => request(s().app.app.callback());
  const directory = () => s().app.container.get(TOKENS.AdminDirectory);
  const principal = async (username: string) => {
    const u = await directory().findByUsername(username);
    assert.ok(u, username);
    return principalOf(u);
  };
  return {
    http,
    directory,
    id: (username: string) => s().ids.get(username) as string,
    /** A live session of the user; `authTime` ms ago it last proved who it is (default: now). */
    async tokenOf(
      username: string,
      opts: { authAgoMs?: number; userAgent?: string; ip?: string; deviceType?: string } = {},
    ): Promise<string> {
      const manager = s().app.container.get(SessionManagers).get('admin');
      const client = {
        ...(opts.ip ? { ip: opts.ip } : {}),
        ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
        ...(opts.deviceType ? { deviceType: opts.deviceType } : {}),
      };
      const auth = opts.authAgoMs === undefined ? {} : { authTime: Date.now() - opts.authAgoMs };
      return (await manager.login(await principal(username), client, {}, undefined, auth)).token;
    },
    /** An access and refresh token pair, as a login issues it. */
    async pairOf(username: string): Promise<{ accessToken: string; refreshToken: string }> {
      const pair = await s()
        .app.container.get(IssueTokens)
        .execute({ loginType: 'admin', principal: await principal(username), client: {} });
      assert.ok(pair.refreshToken !== undefined, 'a login with remember-me comes with a refresh token');
      return { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
    },
    /** The operation-log entries of `action` (after the audit queue is flushed). */
    async operations(token: string, action: string): Promise<Array<{ actor: string; target: string; summary: string | null }>> {
      await s().app.container.get(QueuedAuditTrail).flush();
      const r = await http().get('/monitor/operation-logs').query({ action }).set('Authorization', `Bearer ${token}`);
      assert.equal(r.status, 200, r.text);
      return r.body.data.list;
    },
  };
}
