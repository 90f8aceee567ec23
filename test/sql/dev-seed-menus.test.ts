/**
 * The dev menu tree: config/menus.yml (the embedded directory's) and the SQL seed's (src/adapters/sql/dev-menus.ts) are
 * one tree; the seed writes it into sys_menu, moving a menu seeded before migration 007 (a top-level button) into its
 * place, so the roles holding it keep it; the demo accounts keep exactly their permissions either way.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { InMemoryUserDirectory } from '../../src/adapters/directory/in-memory-user-directory';
import { readMenusFile } from '../../src/adapters/directory/menus-file';
import { DEV_MENU_TREE, type DevMenu } from '../../src/adapters/sql/dev-menus';
import { seedDevAccounts } from '../../src/adapters/sql/dev-seed';
import { SqlMenuCatalogue } from '../../src/adapters/sql/sql-menu-catalogue';
import { SqlUserDirectory } from '../../src/adapters/sql/sql-user-directory';
import type { Menu } from '../../src/domain/menu';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

const flat = (list: readonly DevMenu[]): DevMenu[] => list.flatMap((m) => [m, ...flat(m.children ?? [])]);
const DEV_MENU_COUNT = flat(DEV_MENU_TREE).length;

/** A menu as both sides can compare it: its fields, and its parent and itself named by their permission or path. */
function shapeOf(menus: readonly Menu[]): string[] {
  const byId = new Map(menus.map((m) => [m.id, m]));
  const label = (m: Menu | undefined) => (m === undefined ? '-' : (m.permission ?? m.path));
  return menus
    .map((m) => [label(m), m.type, m.title, m.name, m.path, m.component, m.icon, m.orderNum, label(byId.get(m.parentId ?? ''))].join('|'))
    .sort();
}

const HASH = (pw: string) => Promise.resolve(`$2b$04$${'x'.repeat(53 - pw.length)}${pw}`.slice(0, 60));

describe('the dev menu tree', () => {
  const CONFIG = path.join(__dirname, '../../config');

  it('config/menus.yml is the tree the SQL seed writes', async function () {
    await requireMariaDb(this);
    const db = await ScratchDatabase.create('devmenus');
    try {
      await seedDevAccounts(db.pool, HASH);
      assert.deepEqual(shapeOf(await new SqlMenuCatalogue(db.pool).menus()), shapeOf(readMenusFile(path.join(CONFIG, 'menus.yml'))));
    } finally {
      await db.drop();
    }
  });

  it('the demo accounts keep exactly their permissions on the embedded directory', async () => {
    const dir = InMemoryUserDirectory.fromFile(path.join(CONFIG, 'users.yml'));
    assert.deepEqual((await dir.findByUsername('admin'))?.permissions, ['*:*:*']);
    assert.deepEqual([...((await dir.findByUsername('viewer'))?.permissions ?? [])].sort(), ['monitor:online:list', 'system:user:list']);
  });

  it('the seed moves a menu seeded before migration 007 into the tree; its roles keep it', async function () {
    await requireMariaDb(this);
    const db = await ScratchDatabase.create('devmenus');
    try {
      await db.pool.query("INSERT INTO sys_menu (name, permission, status) VALUES ('User list', 'system:user:list', '0')");
      await db.pool.query("INSERT INTO sys_role (role_key, name) VALUES ('viewer', 'Viewer')");
      await db.pool.query('INSERT INTO sys_role_menu (role_id, menu_id) SELECT r.id, m.id FROM sys_role r, sys_menu m');
      const [[old]] = (await db.pool.query<RowDataPacket[]>('SELECT id FROM sys_menu')) as unknown as [RowDataPacket[]];
      await seedDevAccounts(db.pool, HASH);
      await seedDevAccounts(db.pool, HASH);
      const menus = await new SqlMenuCatalogue(db.pool).menus();
      assert.equal(menus.length, DEV_MENU_COUNT);
      const users = menus.find((m) => m.permission === 'system:user:list');
      assert.equal(users?.id, String(old?.id), 'the old row is the Users page now');
      assert.equal(users?.type, 'C');
      assert.equal(menus.find((m) => m.id === users?.parentId)?.title, 'System');
      const viewer = await new SqlUserDirectory(db.pool).findByUsername('viewer');
      assert.deepEqual(viewer?.permissions, ['monitor:online:list', 'system:user:list']);
    } finally {
      await db.drop();
    }
  });
});
