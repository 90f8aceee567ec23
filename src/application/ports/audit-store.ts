/**
 * The store's side of the audit trail: it keeps the events (the `store` sink appends to it) and
 * answers the searches of the login log and the operation log, newest first, a page at a time.
 * One log per login type and log name; what is older than the retention is removed as events
 * are appended.
 */
import type { AuditLogName, EventOutcome, SecurityEvent, SecurityEventType } from '../audit/security-event';
import type { LoginType } from '../../domain/login-type';
import type { ChainReport } from '../audit/hash-chain';

export interface AuditQuery {
  readonly loginType: LoginType;
  readonly log: AuditLogName;
  readonly username?: string;
  readonly userId?: string;
  readonly ip?: string;
  readonly outcome?: EventOutcome;
  /** Only these types (absent: every type). */
  readonly types?: readonly SecurityEventType[];
  readonly actor?: string;
  readonly action?: string;
  readonly target?: string;
  /** ms since epoch, inclusive. */
  readonly from?: number;
  /** ms since epoch, inclusive. */
  readonly to?: number;
  /** Where the previous page stopped (its `nextCursor`); absent: from the newest event. */
  readonly cursor?: string;
  /** At most this many events. */
  readonly limit: number;
}

export interface AuditPage {
  /** Newest first. */
  readonly list: readonly SecurityEvent[];
  /**
   * Where the next page starts; null when nothing older is left. A page may hold fewer than
   * `limit` events with a cursor still given: a store reads a bounded number of events per page.
   */
  readonly nextCursor: string | null;
}

export interface AuditStore {
  /**
   * Appends a batch (oldest first) and removes what is older than `retentionMs`. The same batch
   * appended again (a retry after a write whose answer was lost) is kept once.
   */
  append(events: readonly SecurityEvent[], retentionMs: number): Promise<void>;
  query(q: AuditQuery): Promise<AuditPage>;
  /**
   * Walks a log in stored order (events of `from`..`to`, ms, when given) checking each event's
   * chain hash (hash-chain.ts); reports the first break.
   */
  verifyChain(loginType: LoginType, log: AuditLogName, range?: { readonly from?: number; readonly to?: number }): Promise<ChainReport>;
}
