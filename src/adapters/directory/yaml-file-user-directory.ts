/**
 * The YAML directory file as a writable UserDirectory, for the CLI (`users add`): each call reads
 * the file, and create() appends the user and rewrites the file atomically (a temporary file in
 * the same directory, then rename), keeping its comments, layout and file mode. The servers read
 * the file at start-up, so a running app sees the new user after its next restart.
 */
import { renameSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument, YAMLSeq } from 'yaml';
import type { AccountStore } from '../../application/ports/account-store';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../application/ports/user-directory';
import { InMemoryUserDirectory } from './in-memory-user-directory';

export class YamlFileUserDirectory implements UserDirectory {
  constructor(readonly file: string) {}

  private snapshot(): InMemoryUserDirectory {
    return InMemoryUserDirectory.fromFile(this.file);
  }

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    return this.snapshot().findByUsername(username);
  }

  async findById(id: string): Promise<DirectoryUser | null> {
    return this.snapshot().findById(id);
  }

  async list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    return this.snapshot().list(offset, limit);
  }

  /**
   * The file's accounts as an AccountStore, each call on the file as it is then. A change made through
   * it is not written back (it would be lost with the snapshot): wrap it read-only (read-only-directory.ts).
   */
  snapshotAccounts(): AccountStore {
    const now = () => this.snapshot();
    return {
      setPassword: (id, change) => now().setPassword(id, change),
      passwordHistory: (id, limit) => now().passwordHistory(id, limit),
      setStatus: (id, status) => now().setStatus(id, status),
      findByEmail: (email) => now().findByEmail(email),
      setEmail: (id, email, verified) => now().setEmail(id, email, verified),
      markEmailVerified: (id, email) => now().markEmailVerified(id, email),
    };
  }

  async create(user: NewUser): Promise<CreateUserResult> {
    // The same rules as the server's directory (unknown roles, taken names, next id) on the current file.
    const result = await this.snapshot().create(user);
    if (!result.ok) return result;
    const created = result.user;
    const doc = parseDocument(readFileSync(this.file, 'utf8'));
    const entry: Record<string, unknown> = {
      id: Number(created.id),
      username: created.username,
      nickname: created.nickname,
      password: created.passwordHash,
      roles: [...created.roles],
    };
    if (created.avatar !== '') entry.avatar = created.avatar;
    if (typeof created.email === 'string') entry.email = created.email;
    const users = doc.get('users');
    if (users instanceof YAMLSeq) users.add(doc.createNode(entry));
    else doc.set('users', doc.createNode([entry]));
    const text = doc.toString();
    const mode = statSync(this.file).mode & 0o777;
    const tmp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}.tmp`);
    writeFileSync(tmp, text, { mode });
    renameSync(tmp, this.file);
    return { ok: true, user: created };
  }
}
