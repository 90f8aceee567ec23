import 'reflect-metadata';
/**
 * The audit trail's `sql` sink on MariaDB (migration 006): logins and operations over HTTP land in
 * sys_login_log and sys_oper_log, a batch written again is kept once, and the retention purge
 * removes what is older.
 */
import assert from 'node:assert/strict';
import type { RowDataPacket } from 'mysql2/promise';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import { UuidV7 } from '../../src/application/audit/event-id';
import { eventOf } from '../../src/application/audit/security-event';
import { SqlAuditSink } from '../../src/adapters/sql/sql-audit-sink';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { adminLogin, bearer } from '../support/flows';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

describe('audit trail: the sql sink (MariaDB)', function () {
  this.timeout(30_000);
  let db: ScratchDatabase;
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;

  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('auditsql');
    const ds = db.settings;
    const config = testConfig({
      'svc.audit.sinks': 'sql',
      'svc.datasource.url': ds.url,
      'svc.datasource.username': ds.username,
      'svc.datasource.password': ds.password,
      'svc.trusted-proxies': '127.0.0.1,::1',
      'svc.crypto.worker-threads': 2,
    });
    infra = testInfra(config, { label: 'auditsql' });
    apps = buildBoth(config, infra);
  });
  after(async () => {
    await infra?.dispose();
    await db?.drop();
  });

  const rows = async (sql: string, params: unknown[] = []) => (await db.pool.query<RowDataPacket[]>(sql, params))[0];

  it('a login, a failed one and a role change land in sys_login_log and sys_oper_log', async () => {
    const login = adminLogin(apps.admin.app);
    const root = (await login('admin', 'admin123', '10.5.0.1')).body.data.accessToken as string;
    await login('admin', 'wrong', '10.5.0.2');
    await request(apps.admin.app.callback())
      .post('/system/user/2/roles')
      .set(bearer(root))
      .send({ roles: ['viewer'] })
      .expect(200);
    await apps.admin.container.get(QueuedAuditTrail).flush();

    const logins = await rows(
      'SELECT event_type, status, reason, username, user_id, ipaddr, token_id FROM sys_login_log ORDER BY event_id',
    );
    assert.deepEqual(
      logins.map((r) => [r.event_type, r.status, r.reason, r.username, r.user_id, r.ipaddr]),
      [
        ['login', '0', null, 'admin', '1', '10.5.0.1'],
        ['login', '1', 'bad-credentials', 'admin', null, '10.5.0.2'],
      ],
    );
    assert.match(String(logins[0]?.token_id), /^[0-9a-f]{32}$/);
    const ops = await rows('SELECT event_type, action, actor, target, summary, status, username FROM sys_oper_log');
    assert.deepEqual(
      ops.map((r) => ({ ...r })),
      [
        {
          event_type: 'roles-changed',
          action: 'user.roles',
          actor: 'admin',
          target: '2',
          summary: 'roles=viewer',
          status: '0',
          username: 'viewer',
        },
      ],
    );
  });

  it('a batch written again is kept once; the purge removes rows older than the retention', async () => {
    const sink = new SqlAuditSink(db.pool, { now: () => Date.now() }, 30 * 86_400_000);
    const ids = new UuidV7();
    const old = Date.now() - 40 * 86_400_000;
    const batch = [
      eventOf({ type: 'logout', loginType: 'web', outcome: 'success', username: 'old' }, ids.next(old), old),
      eventOf({ type: 'logout', loginType: 'web', outcome: 'success', username: 'new' }, ids.next(Date.now()), Date.now()),
    ];
    await sink.write(batch); // the first write of this sink also purges, before the rows are old enough to matter
    await sink.write(batch);
    assert.equal(Number((await rows("SELECT COUNT(*) AS n FROM sys_login_log WHERE event_type = 'logout'"))[0]?.n), 2);
    assert.equal(await sink.purge(new Date(Date.now() - 30 * 86_400_000)), 1);
    assert.deepEqual(
      (await rows("SELECT username FROM sys_login_log WHERE event_type = 'logout'")).map((r) => r.username),
      ['new'],
    );
  });
});
