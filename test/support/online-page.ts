/** The first sessions of a login type's online list, as the old `listAll(type, now, limit)` gave them (SessionStore.listPage). */
import type { ListedSession, SessionStore } from '../../src/application/ports/session-store';
import type { LoginType } from '../../src/domain/login-type';

export async function listAll(store: SessionStore, type: LoginType, now: number, limit: number): Promise<ListedSession[]> {
  return (await store.listPage(type, now, { offset: 0, limit, scanLimit: 10_000, exactCountUpTo: 1_000 })).sessions;
}
