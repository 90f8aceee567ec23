import type { Principal, RequiredAction } from '../../domain/session';
import type { DirectoryUser } from '../ports/user-directory';

/** What a session records of a directory user: the snapshot its permission checks read. */
export function principalOf(user: DirectoryUser): Principal {
  return {
    userId: user.id,
    username: user.username,
    nickname: user.nickname,
    avatar: user.avatar,
    roles: [...user.roles],
    permissions: [...user.permissions],
  };
}

/** What the account must do before a session of it is a full one (Keycloak's required actions). */
export function requiredActionsOf(user: DirectoryUser): RequiredAction[] {
  return user.mustChangePassword === true ? ['update-password'] : [];
}
