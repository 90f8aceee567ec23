/**
 * Hands messages to the Mailer without letting it hold up or fail a request: a send waits at most
 * svc.mail.timeout-ms, and a failure or timeout is logged (kind and outcome, never the recipient,
 * the body or a token) and counted, never thrown.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { Logger } from '../ports/logger';
import type { MailMessage, Mailer } from '../ports/mailer';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import type { AccountSettings } from '../users/account-settings';

/** What a message is for: a small fixed set, used as a metric label. */
export type MailKind = 'verify-email' | 'reset-password';

@injectable()
export class DeliverMail {
  static readonly reasons: readonly Reason[] = ['mail-unavailable'];

  constructor(
    @inject(TOKENS.Mailer) private readonly mailer: Mailer,
    @inject(TOKENS.Logger) private readonly log: Logger,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
  ) {}

  /** Throws 503 mail-unavailable when nothing can be sent (call it before writing anything a message would complete). */
  ensureAvailable(): void {
    if (!this.mailer.available) throw new DomainError('mail-unavailable', 'E-mail cannot be sent: no mail server is configured.');
  }

  /** Sends, waiting at most the timeout; resolves in every case. */
  async send(kind: MailKind, message: MailMessage): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.settings.mailTimeoutMs);
    });
    const sending = this.mailer.send(message).then(
      () => 'sent' as const,
      (e: unknown) => {
        this.log.warn({ kind, err: e instanceof Error ? e.message : String(e) }, 'e-mail could not be sent');
        return 'failed' as const;
      },
    );
    const outcome = await Promise.race([sending, timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.log.warn({ kind, timeoutMs: this.settings.mailTimeoutMs }, 'e-mail still not sent after the timeout');
    this.metrics.mailSent(kind, outcome);
  }
}
