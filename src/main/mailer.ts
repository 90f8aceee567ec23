/**
 * The process's mailer (one for both apps, closed with the infrastructure): svc.mail.smtp-url set,
 * the SMTP mailer in any profile; unset, the embedded mailbox in dev and test (read at
 * `GET /dev/mailbox` on web), and in prod a mailer that is not available (routes that mail answer
 * 503 mail-unavailable; the start warns, and refuses with svc.web.require-verified-email: see
 * prodSecretChecks and configWarnings).
 */
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { Mailer } from '../application/ports/mailer';
import { MemoryMailbox } from '../adapters/mail/memory-mailbox';
import { SmtpMailer } from '../adapters/mail/smtp-mailer';
import { UnavailableMailer } from '../adapters/mail/unavailable-mailer';
import type { AppConfig } from './config';

export interface ProcessMailer {
  readonly mailer: Mailer;
  /** The embedded mailbox when it is the mailer (dev and test without svc.mail.smtp-url), else null. */
  readonly mailbox: MemoryMailbox | null;
  close(): Promise<void>;
}

export function createMailer(config: AppConfig, deps: { readonly log: Logger; readonly clock: Clock }): ProcessMailer {
  const url = config.raw['svc.mail.smtp-url'].trim();
  const from = config.raw['svc.mail.from'];
  if (url !== '') {
    const smtp = new SmtpMailer({ url, from, timeoutMs: config.raw['svc.mail.timeout-ms'] });
    return { mailer: smtp, mailbox: null, close: () => smtp.close() };
  }
  if (config.profile === 'prod') return { mailer: new UnavailableMailer(), mailbox: null, close: async () => undefined };
  const mailbox = new MemoryMailbox({ from, log: deps.log, clock: deps.clock });
  return { mailer: mailbox, mailbox, close: async () => undefined };
}
