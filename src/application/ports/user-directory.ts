/**
 * Accounts of one login type (admin users, later web members). "Not found" is a value.
 * Kept storage-neutral so a SQL adapter (sys_user / sys_role / sys_menu) can implement it.
 */
export interface DirectoryUser {
  readonly id: string;
  readonly username: string;
  readonly nickname: string;
  readonly avatar: string;
  /** BCrypt hash ($2a$/$2b$/$2y$); never plaintext. */
  readonly passwordHash: string;
  /** The account's flag; a disabled account with `disabledUntil` in the past logs in again (the ban has lifted). */
  readonly enabled: boolean;
  readonly roles: readonly string[];
  /** Effective permission strings (from the roles, plus any granted to the user directly). */
  readonly permissions: readonly string[];
  /** Why the account is disabled (shown to administrators only), when it is. */
  readonly disabledReason?: string | null;
  /** End of a timed ban (ms since epoch); null or absent: disabled until enabled again. */
  readonly disabledUntil?: number | null;
  /** Set by an administrator's reset: the next login gets a session restricted to changing the password. */
  readonly mustChangePassword?: boolean;
  /** The account's e-mail address as given (members; admins may have none). */
  readonly email?: string | null;
  readonly emailVerified?: boolean;
  /** A phone number as given (admin accounts; absent where a directory keeps none). */
  readonly phone?: string | null;
}

/** Whether the account may log in at `now`: enabled, or disabled by a timed ban that has ended. */
export function accountActive(user: Pick<DirectoryUser, 'enabled' | 'disabledUntil'>, now: number): boolean {
  if (user.enabled) return true;
  return user.disabledUntil !== undefined && user.disabledUntil !== null && user.disabledUntil <= now;
}

export interface NewUser {
  readonly username: string;
  readonly passwordHash: string;
  readonly nickname: string;
  readonly avatar?: string;
  readonly roles: readonly string[];
  /** Members: an e-mail address (unverified), unique case-insensitively. */
  readonly email?: string;
}

export type CreateUserResult =
  | { readonly ok: true; readonly user: DirectoryUser }
  | { readonly ok: false; readonly reason: 'username-taken' | 'email-taken' | 'unknown-role'; readonly detail: string };

/**
 * One account per name, whatever its case: names are compared by their folded form
 * (`foldUsername`, src/domain/username.ts: NFKC, then lower case), while `DirectoryUser.username`
 * is always the stored spelling, which is what every answer shows.
 */
export interface UserDirectory {
  /** The account whose folded name is the folded `username` (`ADMIN` finds `admin`), or null. */
  findByUsername(username: string): Promise<DirectoryUser | null>;
  findById(id: string): Promise<DirectoryUser | null>;
  /**
   * Creates a user atomically, keeping the spelling given: a username whose folded form is taken
   * (`Viewer` beside `viewer`) or an unknown role is a value, never a half-written user.
   */
  create(user: NewUser): Promise<CreateUserResult>;
  /** All users, ordered by id (small directories; a SQL adapter pages). */
  list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }>;
}
