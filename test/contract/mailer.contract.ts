/**
 * The Mailer contract, written once and run against every adapter that delivers (mailer.test.ts):
 * the SMTP mailer to a real SMTP server, the embedded mailbox of dev and test. What arrives is
 * read back at the receiving end: the SMTP server's parsed messages, the mailbox's list.
 */
import assert from 'node:assert/strict';
import type { Mailer } from '../../src/application/ports/mailer';

/** A message as the receiving end saw it. */
export interface Arrived {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

export interface MailerFixture {
  readonly mailer: Mailer;
  /** The sender the mailer was given (svc.mail.from). */
  readonly from: string;
  /** What has arrived so far, oldest first. */
  arrived(): Arrived[];
  cleanup(): Promise<void>;
}

/** Line endings as SMTP carries them, and the trailing newline a MIME part may end with, aside. */
const body = (s: string | undefined): string | undefined => s?.replace(/\r\n/g, '\n').replace(/\n$/, '');

export function describeMailerContract(name: string, make: () => Promise<MailerFixture>): void {
  describe(`Mailer contract: ${name}`, () => {
    let fx: MailerFixture;
    beforeEach(async () => {
      fx = await make();
    });
    afterEach(async () => fx?.cleanup());

    it('is available, and a sent message arrives with its sender, recipient, subject and text (no HTML part)', async () => {
      assert.equal(fx.mailer.available, true);
      await fx.mailer.send({ to: 'alice@example.com', subject: 'Your code', text: 'Your code is 123456.\nIt expires in 15 minutes.' });
      const [m, ...more] = fx.arrived();
      assert.equal(more.length, 0);
      assert.ok(m);
      assert.equal(m.from, fx.from);
      assert.equal(m.to, 'alice@example.com');
      assert.equal(m.subject, 'Your code');
      assert.equal(body(m.text), 'Your code is 123456.\nIt expires in 15 minutes.');
      assert.equal(m.html, undefined);
    });

    it('an HTML alternative arrives beside the text', async () => {
      const html = '<p>Open <a href="https://app.example.com/reset-password?token=abc">this link</a>.</p>';
      await fx.mailer.send({ to: 'bob@example.com', subject: 'Reset your password', text: 'Open https://app.example.com/reset', html });
      const [m] = fx.arrived();
      assert.equal(body(m?.text), 'Open https://app.example.com/reset');
      assert.equal(body(m?.html), html);
    });

    it('non-ASCII subjects, bodies and long lines arrive unchanged', async () => {
      const text = `Grüße, 张伟! ✓\n${'x'.repeat(200)}`;
      await fx.mailer.send({ to: 'zhang@example.com', subject: 'Bestätigung – 确认', text });
      const [m] = fx.arrived();
      assert.equal(m?.subject, 'Bestätigung – 确认');
      assert.equal(body(m?.text), text);
    });

    it('messages sent one after another all arrive, in their order', async () => {
      for (const i of [1, 2, 3]) await fx.mailer.send({ to: `u${i}@example.com`, subject: `message ${i}`, text: `body ${i}` });
      assert.deepEqual(
        fx.arrived().map((m) => [m.to, m.subject]),
        [1, 2, 3].map((i) => [`u${i}@example.com`, `message ${i}`]),
      );
    });
  });
}
