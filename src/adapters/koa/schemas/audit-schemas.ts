/** The success payloads of the audit log routes (docs/audit.md): named schemas with a description and an example. */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DateTime } from './account-schemas';

extendZodWithOpenApi(z);

const text = (description: string) => z.string().nullable().openapi({ description });

export const AuditEntry = z
  .object({
    id: z.string().openapi({ description: 'The event id (a UUIDv7: ids sort by time)' }),
    time: DateTime,
    type: z.string().openapi({ description: 'The event type (docs/audit.md)' }),
    loginType: z.enum(['admin', 'web']),
    outcome: z.enum(['success', 'failure']),
    reason: text('The refusal reason (error catalogue), failures only'),
    userId: text('Who the event is about, when known'),
    username: text('Who the event is about, when known'),
    tokenId: text("The session's token id (never a token)"),
    ip: text('Client IP'),
    os: text('Operating system, from the user agent'),
    browser: text('Browser and major version, from the user agent'),
    deviceType: text('desktop, mobile, tablet, tv, bot or unknown'),
    requestId: text("The request's X-Request-Id"),
    actor: text('Operations: who acted'),
    action: text('Operations: what was done (user.disable, ...)'),
    target: text('What it was done to (a user id, a token id; for refusals the method and path)'),
    summary: text('Operations: the request summarised (never copied)'),
  })
  .openapi('AuditEntry', {
    description: 'One security event',
    example: {
      id: '0194b6a2-4c1e-7a3b-9f21-6d0e5c4b3a21',
      time: '2025/01/31 14:05:09',
      type: 'user-disabled',
      loginType: 'admin',
      outcome: 'success',
      reason: null,
      userId: '7',
      username: 'ops.lee',
      tokenId: null,
      ip: '203.0.113.7',
      os: 'Windows 10',
      browser: 'Chrome 120',
      deviceType: 'desktop',
      requestId: '5b0e7c9a-1f2d-4e3b-8a6c-0d9e8f7a6b5c',
      actor: 'admin',
      action: 'user.disable',
      target: '7',
      summary: null,
    },
  });

export const AuditLogPage = z
  .object({
    list: z.array(AuditEntry),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next (older) page; null: nothing older. A page may hold fewer than `limit`.' }),
  })
  .openapi('AuditLogPage', {
    description: 'One page of a log, newest first',
    example: { list: [], nextCursor: '1738332309000-0' },
  });

export const OwnLogin = z
  .object({
    time: DateTime,
    outcome: z.enum(['success', 'failure']),
    reason: text('Why it failed (failures only)'),
    ip: text('Client IP'),
    os: text('Operating system'),
    browser: text('Browser and major version'),
    deviceType: text('desktop, mobile, tablet, tv, bot or unknown'),
    current: z.boolean().openapi({ description: 'This login made the session of the request' }),
  })
  .openapi('OwnLogin', {
    description: "One of the caller's recent logins (successes and failed attempts on their username)",
    example: {
      time: '2025/01/31 14:05:09',
      outcome: 'success',
      reason: null,
      ip: '203.0.113.7',
      os: 'macOS Sonoma',
      browser: 'Safari 17',
      deviceType: 'desktop',
      current: true,
    },
  });
