/**
 * E-mail over SMTP with nodemailer (svc.mail.smtp-url). `smtp://user:pass@host:587` upgrades with
 * STARTTLS whenever the server offers it (nodemailer's default for a non-secure connection);
 * `smtps://user:pass@host:465` speaks TLS from the first byte. Connecting, the server's greeting and
 * every later read each wait at most `timeoutMs`. Connections are pooled (a few, reused across
 * messages) and closed by close() at shutdown.
 *
 * Nodemailer's own logger stays off (it would print the AUTH exchange), and an error's message is
 * passed on with the URL's password masked, so a caller may log it.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type { MailMessage, Mailer } from '../../application/ports/mailer';

export interface SmtpMailerOptions {
  /** `smtp://[user:pass@]host[:port]` or `smtps://...` (user and password percent-encoded). */
  readonly url: string;
  /** The sender of every message (`Name <address>`). */
  readonly from: string;
  /** Longest wait to connect, for the greeting, and for any later answer of the server. */
  readonly timeoutMs: number;
  /** Extra CA certificates (PEM) to trust for the server's certificate, besides the system's (tests: a self-signed server). */
  readonly trustedCa?: string;
}

/** Nodemailer's pool settings for `opts` (exported for tests of the URL's reading). */
export function smtpTransportOptions(opts: SmtpMailerOptions): SMTPPool.Options {
  const u = new URL(opts.url);
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error('svc.mail.smtp-url: expected smtp://... or smtps://...');
  const secure = u.protocol === 'smtps:';
  const user = decodeURIComponent(u.username);
  return {
    pool: true,
    maxConnections: 2,
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port === '' ? (secure ? 465 : 587) : Number(u.port),
    secure,
    ...(user === '' ? {} : { auth: { user, pass: decodeURIComponent(u.password) } }),
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
    logger: false,
    debug: false,
    ...(opts.trustedCa === undefined ? {} : { tls: { ca: opts.trustedCa } }),
  };
}

export class SmtpMailer implements Mailer {
  readonly available = true;
  private readonly transport: Transporter<SMTPPool.SentMessageInfo>;
  private readonly password: string;

  constructor(private readonly opts: SmtpMailerOptions) {
    const options = smtpTransportOptions(opts);
    this.password = options.auth?.pass ?? '';
    this.transport = nodemailer.createTransport(options);
  }

  async send(message: MailMessage): Promise<void> {
    const { to, subject, text, html } = message;
    try {
      await this.transport.sendMail({ from: this.opts.from, to, subject, text, ...(html === undefined ? {} : { html }) });
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      const why = this.masked(e instanceof Error ? e.message : String(e));
      throw new Error(`SMTP${typeof code === 'string' ? ` ${code}` : ''}: ${why}`);
    }
  }

  /** Closes the pooled connections (a message being sent finishes first). */
  async close(): Promise<void> {
    this.transport.close();
  }

  private masked(s: string): string {
    return this.password === '' ? s : s.split(this.password).join('***');
  }
}
