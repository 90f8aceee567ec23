import type { SessionPolicy } from '../../domain/session';

/** The `session.*` settings of both login types. */
export interface SessionSettings extends SessionPolicy {
  /** Secret from which shared tokens are re-derived (is-share=true only). */
  readonly shareSecret: string;
}
