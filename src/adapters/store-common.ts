/** Rules both store backends (memory and Redis) apply the same way, so they behave alike. */
import type { ListedSession, UserSessionPage, UserSessionQuery } from '../application/ports/session-store';
import { sessionDeviceType } from '../domain/device-type';

/** Store TTLs are whole milliseconds, at least 1 (Redis PX rejects 0). */
export function normTtl(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

/** Oldest first; ties by hash, like a Redis sorted set scored by createdAt. */
export function bySessionAge(a: ListedSession, b: ListedSession): number {
  if (a.record.createdAt !== b.record.createdAt) return a.record.createdAt - b.record.createdAt;
  return a.tokenHash < b.tokenHash ? -1 : a.tokenHash > b.tokenHash ? 1 : 0;
}

/** A page of a user's sessions cut from the whole list (oldest first): filter by device type, then offset and limit. */
export function pageOfSessions(all: readonly ListedSession[], query: UserSessionQuery): UserSessionPage {
  const matching = query.deviceType === undefined ? all : all.filter((s) => sessionDeviceType(s.record) === query.deviceType);
  const offset = Math.max(0, Math.floor(query.offset));
  return { sessions: matching.slice(offset, offset + Math.max(0, Math.floor(query.limit))), total: matching.length };
}
