import { memoryDirectoryWith } from '../support/memory-user-directory';
import { describeUserAdministrationContract, describeUserDirectoryContract, type MakeDirectory } from './user-directory.contract';

const make: MakeDirectory = async (f) => {
  const dir = await memoryDirectoryWith(f.roles, f.users);
  return { directory: dir, administration: dir };
};

describeUserDirectoryContract('in-memory (test reference)', make);
describeUserAdministrationContract('in-memory (test reference)', make);
