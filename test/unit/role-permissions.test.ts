import assert from 'node:assert/strict';
import { effectivePermissions, splitPermissionColumn } from '../../src/domain/role-permissions';

describe('role permissions (RuoYi rule)', () => {
  it('splits a menu permission column at commas, dropping blanks', () => {
    assert.deepEqual(splitPermissionColumn(' system:user:add , system:user:edit,,'), ['system:user:add', 'system:user:edit']);
    assert.deepEqual(splitPermissionColumn(''), []);
    assert.deepEqual(splitPermissionColumn(null), []);
  });
  it('the distinct non-empty permissions of the menus, sorted', () => {
    assert.deepEqual(
      effectivePermissions(['viewer', 'auditor'], ['monitor:online:list', 'system:user:list', 'monitor:online:list', null, '  ']),
      ['monitor:online:list', 'system:user:list'],
    );
  });
  it('role admin holds *:*:* whatever its menus', () => {
    assert.deepEqual(effectivePermissions(['viewer', 'admin'], ['system:user:list']), ['*:*:*']);
  });
});
