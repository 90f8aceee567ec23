/**
 * The MenuCatalogue and RoleAdministration contracts on the embedded directory (svc.directory=file): built from
 * objects, and read from its two YAML files (svc.users-file with roles naming menus, the menus.yml beside it with the tree).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { EmbeddedAccess } from '../../src/adapters/directory/embedded-access';
import { InMemoryUserDirectory, type DirectoryFile } from '../../src/adapters/directory/in-memory-user-directory';
import type { Menu } from '../../src/domain/menu';
import { ACCESS_HASH, lookup, type AccessFixture, type MakeAccess } from './access-fixture';
import { describeMenuCatalogueContract } from './menu-catalogue.contract';
import { describeRoleAdministrationContract } from './role-administration.contract';

/** Ids in fixture order: menus 1.., roles 1.., users 1.. */
const idsOf = (keys: readonly string[]) => new Map(keys.map((k, i) => [k, String(i + 1)]));

function menusOf(f: AccessFixture): Menu[] {
  const ids = idsOf(f.menus.map((m) => m.key));
  return f.menus.map(({ key, parent, ...fields }) => ({
    ...fields,
    id: ids.get(key) as string,
    parentId: parent === null ? null : (ids.get(parent) as string),
  }));
}

function directoryFileOf(f: AccessFixture): DirectoryFile {
  const menuIds = idsOf(f.menus.map((m) => m.key));
  return {
    roles: Object.fromEntries(
      f.roles.map((r, i) => [
        r.key,
        { id: i + 1, name: r.name, order: r.orderNum, enabled: r.enabled, menus: r.menus.map((m) => Number(menuIds.get(m))) },
      ]),
    ),
    users: f.users.map((u, i) => ({
      id: String(i + 1),
      username: u.username,
      password: ACCESS_HASH,
      enabled: true,
      roles: [...u.roles],
      permissions: [],
    })),
  };
}

function underTest(f: AccessFixture, dir: InMemoryUserDirectory) {
  return {
    menus: dir.access,
    roles: dir.access,
    directory: dir,
    menuId: lookup(idsOf(f.menus.map((m) => m.key)), 'menu'),
    roleId: lookup(idsOf(f.roles.map((r) => r.key)), 'role'),
    userId: lookup(idsOf(f.users.map((u) => u.username)), 'user'),
  };
}

const fromObjects: MakeAccess = async (f) => {
  const data = directoryFileOf(f);
  return underTest(f, new InMemoryUserDirectory(data, new EmbeddedAccess(data.roles, menusOf(f))));
};

describeMenuCatalogueContract('embedded directory', fromObjects);
describeRoleAdministrationContract('embedded directory', fromObjects);

/** The nested menus.yml of the fixture's tree. */
function menusYaml(f: AccessFixture): unknown {
  const menus = menusOf(f);
  const nest = (parentId: string | null): unknown[] =>
    menus
      .filter((m) => m.parentId === parentId)
      .map(({ id, parentId: _p, orderNum, ...m }) => ({ id: Number(id), ...m, order: orderNum, children: nest(id) }));
  return { menus: nest(null) };
}

const fromFiles: MakeAccess = async (f) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agaccess-'));
  const data = directoryFileOf(f);
  writeFileSync(path.join(dir, 'menus.yml'), stringify(menusYaml(f)));
  writeFileSync(path.join(dir, 'users.yml'), stringify({ roles: data.roles, users: data.users.map((u) => ({ ...u, id: Number(u.id) })) }));
  return underTest(f, InMemoryUserDirectory.fromFile(path.join(dir, 'users.yml')));
};

describeMenuCatalogueContract('embedded directory, read from users.yml and menus.yml', fromFiles);
describeRoleAdministrationContract('embedded directory, read from users.yml and menus.yml', fromFiles);
