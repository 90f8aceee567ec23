/**
 * Attack (forensics): the operation log is where a back office answers "who did this". A menu administrator adds a
 * button carrying a permission (here one its own role lacks, which creation allows: a new menu grants nothing until a
 * role holds it), and a role administrator adds a role. Both events are recorded with the actor, but with no target:
 * the id of what was created is nowhere in the log (filtering the log by that menu's or role's id finds only what was
 * done to it later), and the menu's event does not say which permission it carries.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import { accessApp, type AccessApp } from '../support/access-apps';

describe('attack: the operation log of what the back office creates', function () {
  this.timeout(60_000);
  let t: AccessApp | undefined;
  afterEach(async () => t?.dispose());

  it('POST /system/menu and POST /system/role: the event names the new id, and a menu its permission', async () => {
    t = await accessApp('file', 'memory');
    const http = () => request((t as AccessApp).app.app.callback());
    const mo = { Authorization: `Bearer ${await t.sessionOf('mo')}` };
    const ro = { Authorization: `Bearer ${await t.sessionOf('ro')}` };
    const admin = { Authorization: `Bearer ${await t.sessionOf('admin')}` };
    const users = await t.menuId('system:user:list');
    const menu = await http()
      .post('/system/menu')
      .set(mo)
      .send({ parentId: users, type: 'F', title: 'Export', permission: 'system:user:export' })
      .expect(201);
    const role = await http().post('/system/role').set(ro).send({ key: 'auditor', name: 'Auditor' }).expect(201);
    await t.app.container.get(QueuedAuditTrail).flush();

    const entry = async (action: string) => {
      const res = await http().get('/monitor/operation-logs').query({ action }).set(admin).expect(200);
      assert.equal(res.body.data.list.length, 1, res.text);
      return res.body.data.list[0] as { actor: string; target: string | null; summary: string | null };
    };
    const created = await entry('menu.create');
    assert.equal(created.actor, 'mo');
    assert.equal(created.target, menu.body.data.id, 'the new menu');
    assert.match(created.summary ?? '', /permission=system:user:export/);
    const added = await entry('role.create');
    assert.equal(added.actor, 'ro');
    assert.equal(added.target, role.body.data.id, 'the new role');
  });
});
