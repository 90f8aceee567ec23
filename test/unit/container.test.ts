/**
 * The container binds use cases on demand (no hand-kept list): asking for an `@injectable()` class
 * binds it once per container, in the singleton scope, and a class whose port this configuration
 * does not bind fails when asked for, naming the port.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Authenticate } from '../../src/application/auth/authenticate';
import { Login } from '../../src/application/auth/login';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { ChangeUserRoles } from '../../src/application/users/change-user-roles';
import { DisableUser } from '../../src/application/users/disable-user';
import { NoRsaDecryptor } from '../../src/adapters/crypto/rsa';
import { createContainer } from '../../src/main/container';
import { testConfig, testInfra, type TestInfra } from '../support/apps';

describe('the container binds use cases on demand', () => {
  const config = testConfig();
  let infra: TestInfra;
  before(() => {
    infra = testInfra(config, { label: 'container' });
  });
  after(async () => infra?.dispose());

  const containerOf = (i = infra) =>
    createContainer(config, i, 'cli', {
      directory: i.directories.admins,
      accounts: i.directories.adminAccounts,
      rsa: new NoRsaDecryptor(),
    });

  it('an unlisted use case resolves, once per container (singleton scope), its collaborators too', () => {
    const c = containerOf();
    const login = c.get(Login);
    assert.ok(login instanceof Login);
    assert.equal(c.get(Login), login);
    assert.equal(c.get(Authenticate), c.get(Authenticate));
    assert.equal(c.get(SessionManagers), c.get(SessionManagers));
    assert.notEqual(containerOf().get(Login), login, 'each container builds its own');
  });

  it('a collaborator built for one use case is the instance another gets', () => {
    const c = containerOf();
    const managers = c.get(SessionManagers);
    c.get(Login);
    c.get(Authenticate);
    assert.equal(c.get(SessionManagers), managers);
  });

  it('without TOKENS.UserAdministration, ChangeUserRoles fails naming the port', () => {
    const readOnly: TestInfra = { ...infra, directories: { ...infra.directories, administration: null } };
    const c = containerOf(readOnly);
    assert.equal(c.isBound(TOKENS.UserAdministration), false);
    assert.throws(() => c.get(ChangeUserRoles), /UserAdministration/);
    assert.ok(containerOf().get(ChangeUserRoles) instanceof ChangeUserRoles);
  });

  it('TOKENS.AccountStore is the accounts given; without it, DisableUser fails naming the port', () => {
    const c = containerOf();
    assert.equal(c.get(TOKENS.AccountStore), infra.directories.adminAccounts);
    assert.ok(c.get(DisableUser) instanceof DisableUser);
    const bare = containerOf();
    bare.unbind(TOKENS.AccountStore);
    assert.throws(() => bare.get(DisableUser), /AccountStore/);
  });
});
