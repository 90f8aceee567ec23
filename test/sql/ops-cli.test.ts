import bcrypt from 'bcryptjs';
import Redis from 'ioredis';
import type { RowDataPacket } from 'mysql2/promise';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { readMigrations } from '../../src/adapters/sql/migrator';
import { DEV_MENU_TREE, type DevMenu } from '../../src/adapters/sql/dev-menus';
import { SqlMemberDirectory } from '../../src/adapters/sql/sql-member-directory';
import { SqlUserDirectory } from '../../src/adapters/sql/sql-user-directory';
import { SessionManagers } from '../../src/application/session/session-manager';
import { principalOf } from '../../src/application/users/principal';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { runOps } from '../../src/main/ops-cli';
import { testConfig } from '../support/apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { prodSecrets } from '../support/prod-env';
import { REDIS_URL, deleteByPrefix, requireRedis, testKeyPrefix } from '../support/services';

const flat = (list: readonly DevMenu[]): DevMenu[] => list.flatMap((m) => [m, ...flat(m.children ?? [])]);

function capture() {
  const lines = { out: [] as string[], err: [] as string[] };
  return { lines, io: { out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) } };
}

describe('ops CLI: db migrate, db seed, sessions resync (MariaDB)', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('opscli', { migrate: false });
    const ds = db.settings;
    env = {
      APP_PROFILE: 'test',
      SVC_DIRECTORY: 'sql',
      SVC_DATASOURCE_URL: ds.url,
      SVC_DATASOURCE_USERNAME: ds.username,
      SVC_DATASOURCE_PASSWORD: ds.password,
    };
  });
  after(async () => db?.drop());

  it('db migrate applies every shipped migration (001, 002, ...) once; running it again applies nothing', async () => {
    const shipped = readMigrations()
      .map((f) => f.version)
      .join(', ');
    assert.match(shipped, /^001, 002/);
    const a = capture();
    assert.equal(await runOps(['db', 'migrate'], { env, ...a.io }), 0, a.lines.err.join('\n'));
    assert.equal(a.lines.out[0], `migrations applied: ${shipped}; already applied: none`);
    const b = capture();
    assert.equal(await runOps(['db', 'migrate'], { env, ...b.io }), 0);
    assert.equal(b.lines.out[0], `migrations applied: none; already applied: ${shipped}`);
  });

  it('db seed adds the dev accounts with BCrypt cost 10, idempotently', async function () {
    this.timeout(30_000);
    const a = capture();
    assert.equal(await runOps(['db', 'seed'], { env, ...a.io }), 0, a.lines.err.join('\n'));
    assert.match(a.lines.out[0] ?? '', /users created: admin, viewer; members created: alice/);
    const b = capture();
    assert.equal(await runOps(['db', 'seed'], { env, ...b.io }), 0);
    assert.match(b.lines.out[0] ?? '', /users created: none; members created: none/);

    const dir = new SqlUserDirectory(db.pool);
    const admin = await dir.findByUsername('admin');
    assert.deepEqual([admin?.roles, admin?.permissions], [['admin'], ['*:*:*']]);
    assert.match(admin?.passwordHash ?? '', /^\$2[aby]\$10\$/);
    assert.ok(await bcrypt.compare('admin123', admin?.passwordHash ?? ''));
    const viewer = await dir.findByUsername('viewer');
    assert.deepEqual([viewer?.roles, viewer?.permissions], [['viewer'], ['monitor:online:list', 'system:user:list']]);
    assert.ok(await bcrypt.compare('viewer123', viewer?.passwordHash ?? ''));
    const alice = await new SqlMemberDirectory(db.pool).findByUsername('alice');
    assert.ok(alice && (await bcrypt.compare('alice-pass-123', alice.passwordHash)));
    assert.deepEqual([alice.email, alice.emailVerified], ['alice@example.com', true], 'the dev member has a verified address');
    const [menus] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM sys_menu');
    assert.equal(Number(menus[0]?.n), flat(DEV_MENU_TREE).length, 'menus are not duplicated by a second seed');
    // An alice seeded before migration 003 (no address) gets hers; her password stays.
    await db.pool.execute("UPDATE member SET email = NULL, email_folded = NULL, email_verified = 0 WHERE username = 'alice'");
    const c = capture();
    assert.equal(await runOps(['db', 'seed'], { env, ...c.io }), 0);
    const again = await new SqlMemberDirectory(db.pool).findByUsername('alice');
    assert.deepEqual([again?.email, again?.emailVerified, again?.passwordHash], ['alice@example.com', true, alice.passwordHash]);
  });

  it('db seed is refused in prod; a missing datasource or bad usage is exit 2', async () => {
    const prod = capture();
    const prodEnv = {
      ...env,
      APP_PROFILE: 'prod',
      SVC_STORE: 'redis',
      SVC_REDIS_URL: 'redis://:pw@127.0.0.1:6379',
      SVC_RSA_PRIVATE_KEY: prodSecrets().SVC_RSA_PRIVATE_KEY,
      SVC_SECURITY_SIGN_ENABLED: 'false',
      SVC_DATASOURCE_PASSWORD: 'not-empty',
      SVC_LOGIN_DEVICE_COOKIE_SECRET: prodSecrets().SVC_LOGIN_DEVICE_COOKIE_SECRET,
      SVC_IDEMPOTENCY_TOKEN_SECRET: prodSecrets().SVC_IDEMPOTENCY_TOKEN_SECRET,
    };
    assert.equal(await runOps(['db', 'seed'], { env: prodEnv, ...prod.io }), 2);
    assert.match(prod.lines.err.join('\n'), /refused in prod/);
    const none = capture();
    assert.equal(await runOps(['db', 'migrate'], { env: { APP_PROFILE: 'test' }, ...none.io }), 2);
    assert.match(none.lines.err.join('\n'), /SVC_DATASOURCE_URL/);
    const usage = capture();
    assert.equal(await runOps(['sessions', 'resync'], { env, ...usage.io }), 2);
    assert.match(usage.lines.err.join('\n'), /usage/);
    const mem = capture();
    assert.equal(await runOps(['sessions', 'resync', '1'], { env: { ...env, SVC_STORE: 'memory' }, ...mem.io }), 2);
    assert.match(mem.lines.err.join('\n'), /svc\.store=redis/);
  });

  describe('sessions resync <userId> against the shared Redis store', () => {
    let infra: Infrastructure | undefined;
    let prefix: string;
    before(async function () {
      await requireRedis(this);
    });
    afterEach(async () => {
      await infra?.close();
      const c = new Redis(REDIS_URL);
      await deleteByPrefix(c, prefix);
      c.disconnect();
    });

    it('after a change made directly in the database, the live token carries the new permissions; disabled -> 401', async () => {
      const ds = db.settings;
      prefix = testKeyPrefix('resync');
      const config = testConfig(
        {
          'svc.directory': 'sql',
          'svc.datasource.url': ds.url,
          'svc.datasource.username': ds.username,
          'svc.datasource.password': ds.password,
          'svc.redis.key-prefix': prefix,
        },
        'redis',
      );
      // The running server's view: the same Redis key prefix the CLI will use.
      infra = createInfrastructure(config, { log: silentLogger });
      const server = buildAdminApp(config, infra);
      const admin = server.container.get(SessionManagers).get('admin');
      const viewer = await new SqlUserDirectory(db.pool).findByUsername('viewer');
      assert.ok(viewer);
      const { token } = await admin.login(principalOf(viewer));

      await db.pool.execute("INSERT IGNORE INTO sys_user_role (user_id, role_id) SELECT ?, id FROM sys_role WHERE role_key = 'editor'", [
        viewer.id,
      ]);
      const cliEnv = { ...env, SVC_STORE: 'redis', SVC_REDIS_URL: REDIS_URL, SVC_REDIS_KEY_PREFIX: prefix };
      const a = capture();
      assert.equal(await runOps(['sessions', 'resync', viewer.id], { env: cliEnv, ...a.io }), 0, a.lines.err.join('\n'));
      assert.match(a.lines.out[0] ?? '', /1 live admin session\(s\) updated/);
      const r = await admin.resolveToken(token);
      assert.ok(r.ok && r.session.record.principal.permissions.includes('system:user:edit'));

      await db.pool.execute("UPDATE sys_user SET status = '1' WHERE id = ?", [viewer.id]);
      const b = capture();
      assert.equal(await runOps(['sessions', 'resync', viewer.id], { env: cliEnv, ...b.io }), 0);
      assert.match(b.lines.out[0] ?? '', /ended \(user disabled\)/);
      const gone = await admin.resolveToken(token);
      assert.equal(!gone.ok && gone.reason, 'token-kicked-out');
      await db.pool.execute("UPDATE sys_user SET status = '0' WHERE id = ?", [viewer.id]);
    });
  });
});
