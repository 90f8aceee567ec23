/** The account lifecycle: password policy, members' e-mail, password reset and the mail it sends. */
import { z } from 'zod';
import { setting } from '../setting';
import { bool, int, str } from '../values';

export const ACCOUNT_KEYS = {
  'svc.password.history': setting({
    schema: int(0, 24),
    default: 5,
    doc: "a new password may not be any of the account's last N passwords, the current one included (0: no check)",
  }),
  'svc.web.require-email': setting({
    schema: bool,
    default: false,
    doc: '`POST /auth/register` requires `email` (optional by default)',
  }),
  'svc.web.require-verified-email': setting({
    schema: bool,
    default: false,
    doc:
      'a member whose e-mail is not verified cannot log in (403 `email-not-verified`); ' +
      'prod refuses to start with it and no `svc.mail.smtp-url`',
  }),
  'svc.web.verify-code-ttl-seconds': setting({
    schema: int(60, 86400),
    default: 900,
    doc: 'how long an e-mail verification code is valid (single use, 5 wrong tries spend it)',
  }),
  'svc.web.reset-token-ttl-seconds': setting({
    schema: int(60, 86400),
    default: 1800,
    doc: 'how long a password-reset token is valid (single use; only the newest one of a member is valid)',
  }),
  'svc.web.reset-link': setting({
    schema: z.string().url('must be an absolute URL'),
    default: 'http://localhost:8081/reset-password',
    doc: 'the page of your web front end that reads the reset token; the message links to it with `token=...` appended',
  }),
  'svc.mail.smtp-url': setting({
    schema: str.refine((v) => v === '' || /^smtps?:\/\//.test(v), 'must be smtp://user:pass@host:587 or smtps://...'),
    default: '',
    secret: true,
    doc:
      'SMTP server, `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://` (TLS from the start); ' +
      'empty: dev and test keep messages in the embedded mailbox (`GET /dev/mailbox` on web); prod sends none ' +
      '(the routes that mail answer 503 `mail-unavailable`) and warns at start',
  }),
  'svc.mail.from': setting({
    schema: str,
    default: 'authguard <no-reply@localhost>',
    doc: 'sender of every message (`Name <address>`)',
  }),
  'svc.mail.timeout-ms': setting({
    schema: int(100, 60000),
    default: 5000,
    doc:
      'longest wait to connect to the SMTP server and for each of its answers; a request waits at most this long for ' +
      'its message, and a failure or timeout is logged and counted, never returned',
  }),
};
