/** The MenuCatalogue and RoleAdministration contracts on MariaDB (sys_menu, sys_role, sys_role_menu; migration 007). */
import { SqlMenuCatalogue } from '../../src/adapters/sql/sql-menu-catalogue';
import { SqlRoleAdministration } from '../../src/adapters/sql/sql-role-administration';
import { SqlUserDirectory } from '../../src/adapters/sql/sql-user-directory';
import { lookup, type MakeAccess } from '../contract/access-fixture';
import { describeMenuCatalogueContract } from '../contract/menu-catalogue.contract';
import { describeRoleAdministrationContract } from '../contract/role-administration.contract';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { seedSqlAccess } from './access-fixture';

describe('SQL menus and roles (MariaDB)', function () {
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('access');
  });
  after(async () => db?.drop());

  const make: MakeAccess = async (f) => {
    await db.clear();
    const ids = await seedSqlAccess(db.pool, f);
    return {
      menus: new SqlMenuCatalogue(db.pool),
      roles: new SqlRoleAdministration(db.pool),
      directory: new SqlUserDirectory(db.pool),
      menuId: lookup(ids.menus, 'menu'),
      roleId: lookup(ids.roles, 'role'),
      userId: lookup(ids.users, 'user'),
    };
  };
  describeMenuCatalogueContract('MariaDB (SqlMenuCatalogue)', make);
  describeRoleAdministrationContract('MariaDB (SqlRoleAdministration)', make);
});
