/**
 * The mailer of prod without svc.mail.smtp-url: nothing can be sent. Callers check `available`
 * first (DeliverMail.ensureAvailable answers 503 mail-unavailable); a send that comes anyway rejects.
 */
import type { MailMessage, Mailer } from '../../application/ports/mailer';

export class UnavailableMailer implements Mailer {
  readonly available = false;

  async send(_message: MailMessage): Promise<void> {
    throw new Error('e-mail cannot be sent: no mail server is configured (svc.mail.smtp-url)');
  }
}
