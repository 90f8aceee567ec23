/**
 * Attack: a holder of system:menu:add (no step-up, no delegation: a new menu grants nothing) adds menus one below
 * the other. Nothing bounds the depth, and the whole tree of `GET /system/menu` is built and written recursively: a
 * chain a couple of thousand menus deep overflows the stack and the menu page answers 500 for everyone from then
 * on (undoing it takes as many deletes, bottom up). `GET /auth/routes` already stops 64 levels down; a write that
 * makes the tree deeper than that should be refused (400), so the tree stays one the service can answer.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp, type DirectoryKind } from '../support/access-apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

const dir = (parentId: string | null, i: number) => ({ parentId, type: 'M', title: `Level ${i}`, path: `/l${i}` });

for (const kind of ['file', 'sql'] as DirectoryKind[]) {
  describe(`attack: a menu chain deep enough to break the menu tree (${kind} directory)`, function () {
    this.timeout(180_000);
    let db: ScratchDatabase | undefined;
    let t: AccessApp | undefined;
    before(async function () {
      if (kind === 'sql') {
        await requireMariaDb(this);
        db = await ScratchDatabase.create('a28depth');
      }
    });
    afterEach(async () => t?.dispose());
    after(async () => db?.drop());

    it('POST /system/menu one below the other: refused before the tree stops answering', async () => {
      t = await accessApp(kind, 'memory', db);
      const http = () => request((t as AccessApp).app.app.callback());
      const mo = { Authorization: `Bearer ${await t.sessionOf('mo')}` };
      let parent: string | null = null;
      let depth = 0;
      for (let i = 1; i <= 2500; i++) {
        const res: request.Response = await http().post('/system/menu').set(mo).send(dir(parent, i));
        if (res.status === 400) {
          assert.equal(res.body.errors?.[0]?.pointer, '/parentId', res.text);
          break;
        }
        assert.equal(res.status, 201, res.text);
        parent = res.body.data.id;
        depth = i;
      }
      const tree = await http().get('/system/menu').set(mo);
      assert.equal(tree.status, 200, `after ${depth} levels: ${tree.text.slice(0, 200)}`);
      assert.ok(depth <= 64, `a ${depth}-level chain of menus was accepted`);
    });

    it('PUT /system/menu/:id: moving a deep branch below another deep branch is refused the same way', async () => {
      t = await accessApp(kind, 'memory', db);
      const http = () => request((t as AccessApp).app.app.callback());
      const mo = { Authorization: `Bearer ${await t.sessionOf('mo')}` };
      const chain = async (tag: number) => {
        const ids: string[] = [];
        for (let i = 1; i <= 40; i++) {
          const res = await http()
            .post('/system/menu')
            .set(mo)
            .send(dir(ids.at(-1) ?? null, tag * 100 + i))
            .expect(201);
          ids.push(res.body.data.id);
        }
        return ids;
      };
      const [a, b] = [await chain(1), await chain(2)];
      const moved = await http()
        .put(`/system/menu/${b[0]}`)
        .set(mo)
        .send(dir(a.at(-1) as string, 201));
      assert.equal(moved.status, 400, `an 80-level tree was accepted: ${moved.text.slice(0, 200)}`);
      assert.equal(moved.body.errors?.[0]?.pointer, '/parentId');
    });
  });
}
