/** What SessionManager answers: a resolved session, a resolve failure, a login. */
import type { ResolveFailure, SessionRecord } from '../../domain/session';
import type { EndedSession } from '../ports/session-store';

export interface ResolvedSession {
  readonly tokenHash: string;
  readonly record: SessionRecord;
}

export type ResolveResult = { ok: true; session: ResolvedSession } | { ok: false; reason: ResolveFailure; tokenPresented: boolean };

export interface LoginResult {
  readonly token: string;
  /** SHA-256 of the token: the only form the store keeps. */
  readonly tokenHash: string;
  readonly tokenId: string;
  readonly record: SessionRecord;
  /** True when is-share handed out an existing token instead of creating one. */
  readonly reused: boolean;
  /** The user's other sessions this login ended (replaced, or over session.max-login-count). */
  readonly ended: readonly EndedSession[];
  /**
   * A concurrent login ended this one before its record was written (it replaced it, or pushed it
   * over the cap): the token answers as that login left it.
   */
  readonly endedBeforeWritten: boolean;
}
