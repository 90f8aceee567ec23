/** The login log and the operation log, searched by an administrator: newest first, by cursor. */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { AuditQuery, AuditStore } from '../ports/audit-store';
import { TOKENS } from '../tokens';
import type { AuthSettings } from '../auth/auth-settings';
import { auditEntryOf, type AuditEntry } from './audit-entry';

export interface AuditLogPage {
  readonly list: readonly AuditEntry[];
  readonly nextCursor: string | null;
}

@injectable()
export class SearchAuditLog {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(TOKENS.AuditStore) private readonly store: AuditStore,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  async execute(query: AuditQuery): Promise<AuditLogPage> {
    const page = await this.store.query(query);
    return { list: page.list.map((e) => auditEntryOf(e, this.settings.timeZone)), nextCursor: page.nextCursor };
  }
}
