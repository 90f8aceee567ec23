import type { DirectoryUser } from '../ports/user-directory';

/** An account as the user administration shows it (never the password hash). */
export interface UserView {
  readonly userId: string;
  readonly username: string;
  readonly nickname: string;
  readonly avatar: string;
  readonly enabled: boolean;
  readonly roles: readonly string[];
}

export function userViewOf(u: DirectoryUser): UserView {
  return { userId: u.id, username: u.username, nickname: u.nickname, avatar: u.avatar, enabled: u.enabled, roles: u.roles };
}
