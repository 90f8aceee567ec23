/**
 * `GET /dev/mailbox` on the web app: what the embedded mailbox kept instead of sending (the last
 * 50 messages, newest first), so that a developer reads a verification code or a reset link
 * without a mail server. Mounted only in dev and test, and only while the embedded mailbox is the
 * mailer (no svc.mail.smtp-url); never in prod (src/main/web.ts). No login: it is a development aid,
 * and its messages carry codes and links, which is why it never exists where real members are.
 */
import { z } from 'zod';
import type { MailboxEntry } from '../../mail/memory-mailbox';
import type { RouteTable } from '../route-kit';
import { route } from '../routes';
import { DevMailboxMessage } from '../schemas/operation-schemas';

/** What the route reads: the embedded mailbox (src/adapters/mail/memory-mailbox.ts). */
export interface MailboxReader {
  /** Newest first. */
  list(): readonly MailboxEntry[];
}

export function devMailboxRoutes(mailbox: MailboxReader): RouteTable {
  return () => [
    route({
      method: 'get',
      path: '/dev/mailbox',
      summary: 'Dev only (not mounted in prod, nor with svc.mail.smtp-url): the e-mails the embedded mailbox kept, newest first',
      tags: ['dev'],
      response: z.array(DevMailboxMessage),
      handler: async () =>
        mailbox.list().map(({ id, from, to, subject, text, html, sentAt }) => ({
          id,
          from,
          to,
          subject,
          text,
          ...(html === undefined ? {} : { html }),
          sentAt,
        })),
    }),
  ];
}
