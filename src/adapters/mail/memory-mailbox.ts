/**
 * The embedded mailbox of dev and test (no svc.mail.smtp-url): keeps the last messages in memory,
 * newest first, for `GET /dev/mailbox` on the web app and for tests to read. Each message leaves
 * one info line with its subject and a masked recipient, never its body (which carries the code
 * or the link a flow sends).
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../application/ports/clock';
import type { Logger } from '../../application/ports/logger';
import type { MailMessage, Mailer } from '../../application/ports/mailer';

/** One message as the mailbox keeps it. */
export interface MailboxEntry extends MailMessage {
  /** A random id of the message (not a secret). */
  readonly id: string;
  /** The sender (svc.mail.from), as an SMTP server would have been told. */
  readonly from: string;
  /** When it was handed over, ISO 8601. */
  readonly sentAt: string;
}

/** How many messages the mailbox keeps by default. */
export const MAILBOX_CAPACITY = 50;

/** `alice@example.com` → `a***@example.com`; a display name is dropped (`Alice <alice@…>` → `a***@…`). */
export function maskAddress(to: string): string {
  const address = /<([^>]*)>/.exec(to)?.[1] ?? to;
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address.trim().charAt(0)}***${address.slice(at).trim()}`;
}

export class MemoryMailbox implements Mailer {
  readonly available = true;
  /** Oldest first (appending is cheap); list() reverses. */
  private readonly entries: MailboxEntry[] = [];

  constructor(private readonly opts: { readonly from: string; readonly log: Logger; readonly clock: Clock; readonly capacity?: number }) {}

  async send(message: MailMessage): Promise<void> {
    const { to, subject, text, html } = message;
    const entry: MailboxEntry = {
      id: randomUUID(),
      from: this.opts.from,
      to,
      subject,
      text,
      ...(html === undefined ? {} : { html }),
      sentAt: new Date(this.opts.clock.now()).toISOString(),
    };
    this.entries.push(entry);
    const capacity = this.opts.capacity ?? MAILBOX_CAPACITY;
    if (this.entries.length > capacity) this.entries.splice(0, this.entries.length - capacity);
    this.opts.log.info({ mailId: entry.id, to: maskAddress(to), subject }, 'e-mail kept in the embedded mailbox (GET /dev/mailbox on web)');
  }

  /** The kept messages, newest first. */
  list(): readonly MailboxEntry[] {
    return [...this.entries].reverse();
  }
}
