/**
 * Outgoing e-mail. Two adapters: SMTP (nodemailer, svc.mail.smtp-url) and the embedded dev/test
 * mailbox that keeps the last messages in memory. Callers never wait on it longer than
 * svc.mail.timeout-ms and never fail a request because a message could not be sent.
 */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  /** Plain-text body (always sent). */
  readonly text: string;
  /** Optional HTML alternative. */
  readonly html?: string;
}

export interface Mailer {
  /** False when nothing can be sent (prod without svc.mail.smtp-url): routes that mail answer 503 mail-unavailable. */
  readonly available: boolean;
  /** Sends one message; rejects when the server refuses it or cannot be reached. */
  send(message: MailMessage): Promise<void>;
}
