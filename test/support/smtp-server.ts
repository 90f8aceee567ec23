/**
 * A real SMTP server for the mailer's tests (smtp-server), on a free loopback port, with AUTH
 * PLAIN/LOGIN: each message it accepts is parsed (mailparser) and kept, with whether its session
 * was encrypted. TLS: none (STARTTLS not offered), 'starttls' (offered; AUTH only after it) or
 * 'implicit' (smtps: TLS from the first byte), with a self-signed certificate for 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** The SMTP session was encrypted (STARTTLS or smtps) when the message was sent. */
  readonly secure: boolean;
}

export interface TestSmtpServer {
  readonly port: number;
  /** `smtp://user:pass@127.0.0.1:<port>` (`smtps://` for 'implicit'). */
  readonly url: string;
  readonly received: ReceivedMail[];
  /** Failed AUTH attempts. */
  readonly authFailures: number;
  /** The TCP connections open to the server now. */
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

export interface Certificate {
  readonly key: string;
  readonly cert: string;
}

let certificate: Certificate | undefined;

/** A self-signed certificate for 127.0.0.1 and localhost (openssl, made once per run). */
export function selfSignedCertificate(): Certificate {
  if (certificate !== undefined) return certificate;
  const dir = mkdtempSync(path.join(tmpdir(), 'agsmtp-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore', input: '' },
    );
    return (certificate = { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first address of a header as `Name <address>`, or the bare address (mailparser quotes names in its `text`). */
function addressText(a: AddressObject | AddressObject[] | undefined): string {
  const first = (Array.isArray(a) ? a[0] : a)?.value[0];
  if (first === undefined) return '';
  return first.name === '' ? (first.address ?? '') : `${first.name} <${first.address ?? ''}>`;
}

export async function startSmtpServer(
  opts: { user?: string; pass?: string; tls?: 'none' | 'starttls' | 'implicit' } = {},
): Promise<TestSmtpServer> {
  const { user = 'mailer', pass = 'smtp-Pa55word', tls = 'none' } = opts;
  const received: ReceivedMail[] = [];
  let authFailures = 0;
  const server = new SMTPServer({
    logger: false,
    secure: tls === 'implicit',
    ...(tls === 'none' ? { disabledCommands: ['STARTTLS'], allowInsecureAuth: true } : selfSignedCertificate()),
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) return cb(null, { user });
      authFailures++;
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      simpleParser(stream).then(
        (m) => {
          received.push({
            from: addressText(m.from),
            to: addressText(m.to),
            subject: m.subject ?? '',
            text: m.text ?? '',
            ...(typeof m.html === 'string' ? { html: m.html } : {}),
            secure: session.secure,
          });
          cb();
        },
        (e: Error) => cb(e),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const listener = (server as unknown as { server: net.Server }).server;
  const { port } = listener.address() as net.AddressInfo;
  const scheme = tls === 'implicit' ? 'smtps' : 'smtp';
  return {
    port,
    url: `${scheme}://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    received,
    get authFailures() {
      return authFailures;
    },
    openConnections: () => new Promise<number>((resolve, reject) => listener.getConnections((e, n) => (e ? reject(e) : resolve(n)))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that accepts connections and never says a word (an SMTP server that hangs before its greeting). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
