/**
 * The file directory in prod: every write refuses with directory-read-only (409) before it changes
 * anything, since the change would be lost at the next restart; the reads (logins) pass through.
 * Dev and test keep changing the file directory in memory.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { InMemoryUserDirectory } from '../../src/adapters/directory/in-memory-user-directory';
import {
  ACCOUNT_WRITES,
  ADMINISTRATION_WRITES,
  DIRECTORY_WRITES,
  PASSKEY_WRITES,
  readOnlyDirectory,
  TOTP_ENROLMENT,
} from '../../src/adapters/directory/read-only-directory';
import { isDomainError } from '../../src/domain/errors';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { loadConfig } from '../../src/main/config';
import { createFileDirectories, fileDirectoryFor } from '../../src/main/directories';
import { testConfig } from '../support/apps';
import { prodEnv } from '../support/prod-env';

const USERS = path.join(__dirname, '../../config/users.yml');
const MEMBERS = path.join(__dirname, '../../config/members.yml');
const HASH = '$2b$04$65TqBsrJ6Zrfj/AULyltdejtskycxGnmba3K0DaFg1q8fEJrUuz6q';

const readOnlyRefusal = (e: unknown) =>
  isDomainError(e) && e.reason === 'directory-read-only' && /svc\.directory=sql/.test(e.message) && /restart/.test(e.message);

/** Every write of the three ports, on an existing account (`userId`), as [name, call]. */
function writesOn(dir: InMemoryUserDirectory, userId: string): Array<[string, () => Promise<unknown>]> {
  return [
    ['create', () => dir.create({ username: 'newbie', nickname: 'N', passwordHash: HASH, roles: [], email: 'n@example.test' })],
    ['setRoles', () => dir.setRoles(userId, [])],
    ['updateProfile', () => dir.updateProfile(userId, { nickname: 'Changed' })],
    ['deleteUser', () => dir.deleteUser(userId)],
    ['setPassword', () => dir.setPassword(userId, { passwordHash: HASH, mustChange: true, keepHistory: 3 })],
    ['setStatus', () => dir.setStatus(userId, { enabled: false, reason: 'x', until: null })],
    ['setEmail', () => dir.setEmail(userId, 'other@example.test', false)],
    ['markEmailVerified', () => dir.markEmailVerified(userId, 'alice@example.com')],
  ];
}

describe('the read-only file directory (prod)', () => {
  it('names every write of UserDirectory, UserAdministration and AccountStore', () => {
    assert.deepEqual([...DIRECTORY_WRITES, ...ADMINISTRATION_WRITES, ...ACCOUNT_WRITES].sort(), [
      'create',
      'deleteUser',
      'markEmailVerified',
      'setEmail',
      'setPassword',
      'setRoles',
      'setStatus',
      'updateProfile',
    ]);
    assert.equal(ERROR_CATALOGUE['directory-read-only'].status, 409);
  });

  it('every write refuses with directory-read-only and changes nothing; every read passes through', async () => {
    const inner = InMemoryUserDirectory.fromFile(USERS);
    const dir = readOnlyDirectory(inner, [...DIRECTORY_WRITES, ...ADMINISTRATION_WRITES, ...ACCOUNT_WRITES]);
    const admin = await dir.findByUsername('admin');
    assert.ok(admin, 'findByUsername');
    const before = await inner.list(0, 100);
    for (const [name, call] of writesOn(dir, admin.id)) await assert.rejects(call(), readOnlyRefusal, name);
    assert.deepEqual(await inner.list(0, 100), before, 'nothing was written');
    assert.deepEqual(await dir.findById(admin.id), admin);
    assert.equal((await dir.list(0, 100)).total, before.total);
    assert.deepEqual(await dir.assignedRoles(admin.id), ['admin']);
    assert.ok((await dir.rolePermissions(['viewer'])).ok);
    assert.deepEqual((await dir.findUsers({ username: 'adm', offset: 0, limit: 10 })).users, [admin]);
    assert.deepEqual(await dir.passwordHistory(admin.id, 5), []);
    assert.equal(await dir.findByEmail('nobody@example.test'), null);
  });

  it('prod: createFileDirectories hands out only read-only directories, for logins, administration and accounts alike', async () => {
    const config = loadConfig({ env: prodEnv({ SVC_USERS_FILE: USERS, SVC_MEMBERS_FILE: MEMBERS }) });
    assert.equal(config.profile, 'prod');
    const dirs = createFileDirectories(config, silentLogger);
    const admin = await dirs.admins.findByUsername('admin');
    const alice = await dirs.memberAccounts.findByEmail('ALICE@example.com');
    assert.ok(admin && alice, 'the reads work');
    await assert.rejects(dirs.admins.create({ username: 'x', nickname: 'x', passwordHash: HASH, roles: [] }), readOnlyRefusal);
    await assert.rejects(dirs.members.create({ username: 'x', nickname: 'x', passwordHash: HASH, roles: [] }), readOnlyRefusal);
    await assert.rejects(dirs.administration?.setRoles(admin.id, []) ?? Promise.resolve(), readOnlyRefusal);
    await assert.rejects(dirs.adminAccounts.setStatus(admin.id, { enabled: true }), readOnlyRefusal);
    await assert.rejects(
      dirs.memberAccounts.setPassword(alice.id, { passwordHash: HASH, mustChange: false, keepHistory: 0 }),
      readOnlyRefusal,
    );
    await assert.rejects(dirs.memberAccounts.setEmail(alice.id, 'a@example.test', true), readOnlyRefusal);
    await assert.rejects(dirs.memberAccounts.markEmailVerified(alice.id, 'alice@example.com'), readOnlyRefusal);
    assert.deepEqual(await dirs.admins.findByUsername('admin'), admin, 'unchanged');
    assert.deepEqual(await dirs.members.findById(alice.id), alice, 'unchanged');
  });

  it('prod: the menus and roles beside the file directory are read, never written', async () => {
    const dirs = createFileDirectories(loadConfig({ env: prodEnv({ SVC_USERS_FILE: USERS, SVC_MEMBERS_FILE: MEMBERS }) }), silentLogger);
    const menus = await dirs.menus.menus();
    assert.ok(menus.length > 0, 'the menus.yml beside the users file is read');
    const [menu] = menus;
    assert.ok(menu);
    const role = await dirs.roles.findRole('2');
    assert.equal(role?.key, 'viewer');
    const fields = { name: 'x', orderNum: 0, enabled: true, remark: '' };
    await assert.rejects(dirs.menus.createMenu({ ...menu, parentId: null }), readOnlyRefusal);
    await assert.rejects(dirs.menus.updateMenu(menu.id, menu), readOnlyRefusal);
    await assert.rejects(dirs.menus.removeMenu(menu.id), readOnlyRefusal);
    await assert.rejects(dirs.roles.createRole('x', fields, []), readOnlyRefusal);
    await assert.rejects(dirs.roles.updateRole('2', fields), readOnlyRefusal);
    await assert.rejects(dirs.roles.setRoleMenus('2', []), readOnlyRefusal);
    await assert.rejects(dirs.roles.removeRole('2'), readOnlyRefusal);
    assert.deepEqual(await dirs.roles.findRole('2'), role, 'unchanged');
    assert.deepEqual(await dirs.menus.menus(), menus, 'unchanged');
  });

  it('prod: passkeys beside the file directory refuse to be added or removed (they would vanish at a restart)', async () => {
    const dirs = createFileDirectories(loadConfig({ env: prodEnv({ SVC_USERS_FILE: USERS, SVC_MEMBERS_FILE: MEMBERS }) }), silentLogger);
    assert.deepEqual([...PASSKEY_WRITES].sort(), ['add', 'recordUse', 'remove']);
    const passkey = {
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      userId: '1',
      publicKey: 'AQ',
      counter: 0,
      transports: [],
      name: 'x',
      createdAt: 1,
      lastUsedAt: null,
      deviceType: 'singleDevice' as const,
      backedUp: false,
    };
    await assert.rejects(dirs.passkeys.add('admin', passkey), readOnlyRefusal);
    await assert.rejects(dirs.passkeys.remove('admin', '1', passkey.id), readOnlyRefusal);
    await assert.rejects(dirs.passkeys.recordUse('admin', passkey.id, { counter: 1, usedAt: 2, backedUp: false }), readOnlyRefusal);
    assert.deepEqual(await dirs.passkeys.list('admin', '1'), []);
    assert.equal(await createFileDirectories(testConfig(), silentLogger).passkeys.add('admin', passkey), true, 'test: in memory');
  });

  it('prod: TOTP beside the file directory refuses enrolment (a factor one process knows the others do not ask for)', async () => {
    const dirs = createFileDirectories(loadConfig({ env: prodEnv({ SVC_USERS_FILE: USERS, SVC_MEMBERS_FILE: MEMBERS }) }), silentLogger);
    assert.deepEqual([...TOTP_ENROLMENT].sort(), ['activate', 'pending', 'savePending']);
    await assert.rejects(dirs.totp.savePending('web', '1', 'sealed', 10_000), readOnlyRefusal);
    await assert.rejects(dirs.totp.pending('web', '1', 0), readOnlyRefusal);
    await assert.rejects(
      dirs.totp.activate('web', '1', { pendingSecret: 'sealed', lastStep: 1, recoveryCodeHashes: [] }, 0),
      readOnlyRefusal,
    );
    // With nothing enrolled the rest finds no factor and changes nothing: a login asks nothing, a removal is a no-op.
    assert.equal(await dirs.totp.active('web', '1'), null);
    assert.equal(await dirs.totp.acceptStep('web', '1', 5), false);
    assert.equal(await dirs.totp.useRecoveryCode('web', '1', 'hash'), false);
    assert.equal(await dirs.totp.remove('web', '1'), false);
    const test = createFileDirectories(testConfig(), silentLogger).totp;
    await test.savePending('web', '1', 'sealed', 10_000);
    assert.equal(await test.pending('web', '1', 0), 'sealed', 'test: in memory');
  });

  it('dev and test: the file directory is changed in memory, unwrapped', async () => {
    const inner = InMemoryUserDirectory.fromFile(MEMBERS);
    assert.equal(fileDirectoryFor(testConfig(), inner), inner);
    assert.equal(fileDirectoryFor(loadConfig({ env: { APP_PROFILE: 'dev' } }), inner), inner);
    const dirs = createFileDirectories(testConfig(), silentLogger);
    const alice = await dirs.members.findByUsername('alice');
    assert.ok(alice);
    assert.equal((await dirs.memberAccounts.setStatus(alice.id, { enabled: false, reason: 'test', until: null }))?.enabled, false);
    assert.equal((await dirs.members.findById(alice.id))?.disabledReason, 'test');
  });
});
