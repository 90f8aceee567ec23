/**
 * A small in-memory member directory with the AccountStore port (e-mail, password history), for
 * unit tests of the account use cases; and a Mailer that keeps what it was asked to send.
 */
import {
  foldEmail,
  type AccountStatus,
  type AccountStore,
  type PasswordChange,
  type SetEmailResult,
} from '../../src/application/ports/account-store';
import type { MailMessage, Mailer } from '../../src/application/ports/mailer';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../src/application/ports/user-directory';
import { foldUsername } from '../../src/domain/username';

interface Row {
  user: DirectoryUser;
  history: string[];
}

export class FakeAccounts implements UserDirectory, AccountStore {
  private readonly rows = new Map<string, Row>();
  private nextId = 1;

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    for (const r of this.rows.values()) if (foldUsername(r.user.username) === foldUsername(username)) return r.user;
    return null;
  }
  async findById(id: string): Promise<DirectoryUser | null> {
    return this.rows.get(id)?.user ?? null;
  }
  async create(u: NewUser): Promise<CreateUserResult> {
    if ((await this.findByUsername(u.username)) !== null) return { ok: false, reason: 'username-taken', detail: u.username };
    if (u.email !== undefined && (await this.findByEmail(u.email)) !== null) return { ok: false, reason: 'email-taken', detail: 'taken' };
    const user: DirectoryUser = {
      id: String(this.nextId++),
      username: u.username,
      nickname: u.nickname,
      avatar: '',
      passwordHash: u.passwordHash,
      enabled: true,
      roles: [],
      permissions: [],
      email: u.email ?? null,
      emailVerified: false,
    };
    this.rows.set(user.id, { user, history: [] });
    return { ok: true, user };
  }
  async list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    const all = [...this.rows.values()].map((r) => r.user);
    return { total: all.length, users: all.slice(offset, offset + limit) };
  }
  async setPassword(userId: string, change: PasswordChange): Promise<DirectoryUser | null> {
    const row = this.rows.get(userId);
    if (!row) return null;
    row.history = [row.user.passwordHash, ...row.history].slice(0, change.keepHistory);
    row.user = { ...row.user, passwordHash: change.passwordHash, mustChangePassword: change.mustChange };
    return row.user;
  }
  async passwordHistory(userId: string, limit: number): Promise<readonly string[]> {
    return (this.rows.get(userId)?.history ?? []).slice(0, limit);
  }
  async setStatus(userId: string, status: AccountStatus): Promise<DirectoryUser | null> {
    const row = this.rows.get(userId);
    if (!row) return null;
    row.user = status.enabled
      ? { ...row.user, enabled: true, disabledReason: null, disabledUntil: null }
      : { ...row.user, enabled: false, disabledReason: status.reason, disabledUntil: status.until };
    return row.user;
  }
  async findByEmail(email: string): Promise<DirectoryUser | null> {
    for (const r of this.rows.values()) if (typeof r.user.email === 'string' && foldEmail(r.user.email) === foldEmail(email)) return r.user;
    return null;
  }
  async setEmail(userId: string, email: string, verified: boolean): Promise<SetEmailResult> {
    const row = this.rows.get(userId);
    if (!row) return { ok: false, reason: 'user-not-found' };
    const holder = await this.findByEmail(email);
    if (holder !== null && holder.id !== userId) return { ok: false, reason: 'email-taken' };
    row.user = { ...row.user, email, emailVerified: verified };
    return { ok: true, user: row.user };
  }
  async markEmailVerified(userId: string, email: string): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || typeof row.user.email !== 'string' || foldEmail(row.user.email) !== foldEmail(email)) return false;
    row.user = { ...row.user, emailVerified: true };
    return true;
  }
}

export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  constructor(public available = true) {}
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  /** The messages sent to `to` (compared case-insensitively), oldest first. */
  to(to: string): MailMessage[] {
    return this.sent.filter((m) => foldEmail(m.to) === foldEmail(to));
  }
}

/** The six-digit code of a verification message. */
export function codeIn(message: MailMessage | undefined): string {
  const m = /\b(\d{6})\b/.exec(message?.text ?? '');
  if (!m?.[1]) throw new Error(`no code in ${JSON.stringify(message?.text)}`);
  return m[1];
}

/** The reset token of a reset message's link. */
export function tokenIn(message: MailMessage | undefined): string {
  const m = /[?&]token=([A-Za-z0-9_-]+)/.exec(message?.text ?? '');
  if (!m?.[1]) throw new Error(`no reset link in ${JSON.stringify(message?.text)}`);
  return m[1];
}
