import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { InMemoryUserDirectory, type DirectoryFile } from '../../src/adapters/directory/in-memory-user-directory';
import { YamlFileUserDirectory } from '../../src/adapters/directory/yaml-file-user-directory';
import { memoryDirectoryWith } from '../support/memory-user-directory';
import {
  describeAccountStoreContract,
  describeUserAdministrationContract,
  describeUserDirectoryContract,
  MEMBER_FIXTURE,
  type DirectoryFixture,
  type MakeDirectory,
} from './user-directory.contract';
import { describeUserRecordsContract } from './user-records.contract';

const make: MakeDirectory = async (f) => {
  const dir = await memoryDirectoryWith(f.roles, f.users);
  return { directory: dir, administration: dir, accounts: dir };
};

describeUserDirectoryContract('in-memory (test reference)', make);
describeUserAdministrationContract('in-memory (test reference)', make);
describeUserRecordsContract('in-memory (test reference)', make);
describeAccountStoreContract('in-memory (test reference)', make);
describeAccountStoreContract('in-memory (test reference), members', make, MEMBER_FIXTURE);

function fileOf(f: DirectoryFixture): DirectoryFile {
  return {
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
}

/** The embedded YAML adapter (svc.directory=file), fed the same fixture as a parsed file. */
const makeFile: MakeDirectory = async (f) => {
  const dir = new InMemoryUserDirectory(fileOf(f));
  return { directory: dir, administration: dir, accounts: dir };
};

describeUserDirectoryContract('file (YAML adapter)', makeFile);
describeUserAdministrationContract('file (YAML adapter)', makeFile);
describeUserRecordsContract('file (YAML adapter)', makeFile);
describeAccountStoreContract('file (YAML adapter)', makeFile);
describeAccountStoreContract('file (YAML adapter), members', makeFile, MEMBER_FIXTURE);

/** The writable YAML file the CLI uses (`users add`): every call reads the file, create() rewrites it. */
const makeYamlFile: MakeDirectory = async (f) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'agdir-')), 'users.yml');
  const data = fileOf(f);
  writeFileSync(file, stringify({ roles: data.roles, users: data.users.map((u) => ({ ...u, id: Number(u.id) })) }));
  return { directory: new YamlFileUserDirectory(file) };
};

describeUserDirectoryContract('YAML file (YamlFileUserDirectory, the CLI)', makeYamlFile);
