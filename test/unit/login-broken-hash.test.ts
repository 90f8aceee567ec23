import assert from 'node:assert/strict';
import { Login } from '../../src/application/auth/login';
import { PasswordCheck } from '../../src/application/auth/password-check';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import { TOKENS } from '../../src/application/tokens';
import { InMemoryUserDirectory } from '../../src/adapters/directory/in-memory-user-directory';
import { isDomainError } from '../../src/domain/errors';
import { buildBoth, testConfig, testInfra } from '../support/apps';

describe('login against a stored hash that is not BCrypt', () => {
  it('is refused like bad credentials, after a compare against the dummy hash (same time as any failure)', async () => {
    const config = testConfig();
    const infra = testInfra(config, { label: 'brokenhash' });
    try {
      const { admin } = buildBoth(config, infra);
      const c = admin.container;
      const seen: string[] = [];
      const hasher: PasswordHasher = {
        hash: async () => '$2b$10$' + 'a'.repeat(53),
        verify: async (_pw, hash) => {
          seen.push(hash);
          return false;
        },
      };
      const dir = new InMemoryUserDirectory({
        roles: { viewer: ['system:user:list'] },
        users: [{ id: '1', username: 'broken', password: '$2b$10$' + 'a'.repeat(53), enabled: true, roles: ['viewer'], permissions: [] }],
      });
      // Corrupt the stored hash the way a bad SQL row would look.
      (dir as unknown as { byName: Map<string, { passwordHash: string }> }).byName.get('broken')!.passwordHash = 'plaintext-oops';
      const child = c.createChild();
      child.bind(TOKENS.PasswordHasher).toConstantValue(hasher);
      child.bind(TOKENS.UserDirectory).toConstantValue(dir);
      child.bind(PasswordCheck).toSelf();
      child.bind(Login).toSelf();
      const login = child.get(Login);
      await assert.rejects(
        login.execute({
          loginType: 'admin',
          username: 'broken',
          password: 'plaintext-oops',
          encrypted: false,
          requireCaptcha: false,
          client: {},
          deviceCookies: [],
        } as never),
        (e) => isDomainError(e) && e.reason === 'bad-credentials',
      );
      assert.equal(seen.length, 1);
      assert.notEqual(seen[0], 'plaintext-oops', 'the broken hash is never handed to BCrypt; the dummy is');
    } finally {
      await infra.dispose();
    }
  });
});
