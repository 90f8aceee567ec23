/** Rules both store backends (memory and Redis) apply the same way, so they behave alike. */
import type { ListedSession } from '../application/ports/session-store';

/** Store TTLs are whole milliseconds, at least 1 (Redis PX rejects 0). */
export function normTtl(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

/** Oldest first; ties by hash, like a Redis sorted set scored by createdAt. */
export function bySessionAge(a: ListedSession, b: ListedSession): number {
  if (a.record.createdAt !== b.record.createdAt) return a.record.createdAt - b.record.createdAt;
  return a.tokenHash < b.tokenHash ? -1 : a.tokenHash > b.tokenHash ? 1 : 0;
}
