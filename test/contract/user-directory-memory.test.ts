import { InMemoryUserDirectory, type DirectoryFile } from '../../src/adapters/directory/in-memory-user-directory';
import { memoryDirectoryWith } from '../support/memory-user-directory';
import { describeUserAdministrationContract, describeUserDirectoryContract, type MakeDirectory } from './user-directory.contract';

const make: MakeDirectory = async (f) => {
  const dir = await memoryDirectoryWith(f.roles, f.users);
  return { directory: dir, administration: dir };
};

describeUserDirectoryContract('in-memory (test reference)', make);
describeUserAdministrationContract('in-memory (test reference)', make);

/** The embedded YAML adapter (svc.directory=file), fed the same fixture as a parsed file. */
const makeFile: MakeDirectory = async (f) => {
  const file: DirectoryFile = {
    roles: Object.fromEntries(f.roles.map((r) => [r.key, { enabled: r.enabled, permissions: [...r.permissions] }])),
    users: f.users.map((u, i) => ({
      id: String(i + 1),
      username: u.username,
      nickname: u.nickname,
      ...(u.avatar !== undefined ? { avatar: u.avatar } : {}),
      password: u.passwordHash,
      enabled: u.enabled,
      roles: [...u.roles],
      permissions: [],
    })),
  };
  const dir = new InMemoryUserDirectory(file);
  return { directory: dir, administration: dir };
};

describeUserDirectoryContract('file (YAML adapter)', makeFile);
describeUserAdministrationContract('file (YAML adapter)', makeFile);
