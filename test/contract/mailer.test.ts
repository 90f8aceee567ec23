/**
 * The mail adapters: the Mailer contract on each (mailer.contract.ts), and what each does beyond
 * it: the embedded mailbox's bound and log line, the unavailable mailer of prod without SMTP.
 */
import assert from 'node:assert/strict';
import { maskAddress, MemoryMailbox } from '../../src/adapters/mail/memory-mailbox';
import { UnavailableMailer } from '../../src/adapters/mail/unavailable-mailer';
import { FakeClock } from '../support/fake-clock';
import { recordingLogger } from '../support/recording-logger';
import { describeMailerContract } from './mailer.contract';

const FROM = 'authguard <no-reply@example.com>';

describeMailerContract('embedded mailbox', async () => {
  const mailbox = new MemoryMailbox({ from: FROM, log: recordingLogger(), clock: new FakeClock() });
  return { mailer: mailbox, from: FROM, arrived: () => [...mailbox.list()].reverse(), cleanup: async () => undefined };
});

describe('MemoryMailbox', () => {
  it('lists newest first, with an id and the time each message was handed over', async () => {
    const clock = new FakeClock();
    const mailbox = new MemoryMailbox({ from: FROM, log: recordingLogger(), clock });
    await mailbox.send({ to: 'a@example.com', subject: 'first', text: '1' });
    clock.advance(1_000);
    await mailbox.send({ to: 'b@example.com', subject: 'second', text: '2', html: '<b>2</b>' });
    const [newest, oldest] = mailbox.list();
    assert.equal(newest?.subject, 'second');
    assert.equal(newest?.html, '<b>2</b>');
    assert.equal(newest?.sentAt, new Date(clock.now()).toISOString());
    assert.equal(oldest?.subject, 'first');
    assert.equal(oldest?.sentAt, new Date(clock.now() - 1_000).toISOString());
    assert.ok(!('html' in (oldest ?? {})), 'no html key for a text-only message');
    assert.match(newest?.id ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(newest?.id, oldest?.id);
  });

  it('keeps only the newest 50 messages', async () => {
    const mailbox = new MemoryMailbox({ from: FROM, log: recordingLogger(), clock: new FakeClock() });
    for (let i = 1; i <= 57; i++) await mailbox.send({ to: 'a@example.com', subject: `m${i}`, text: String(i) });
    const subjects = mailbox.list().map((m) => m.subject);
    assert.equal(subjects.length, 50);
    assert.equal(subjects[0], 'm57');
    assert.equal(subjects[49], 'm8');
  });

  it('logs one info line per message: its subject and a masked recipient, never the body', async () => {
    const log = recordingLogger();
    const mailbox = new MemoryMailbox({ from: FROM, log, clock: new FakeClock() });
    await mailbox.send({ to: 'alice@example.com', subject: 'Verify your e-mail', text: 'code 482913', html: '<b>482913</b>' });
    assert.equal(log.lines.length, 1);
    const [line] = log.lines;
    assert.equal(line?.level, 'info');
    assert.deepEqual(line?.obj, { mailId: mailbox.list()[0]?.id, to: 'a***@example.com', subject: 'Verify your e-mail' });
    assert.ok(!JSON.stringify(line).includes('482913'), 'no body, no code');
    assert.ok(!JSON.stringify(line).includes('alice'), 'no full address');
  });

  it('masks an address to its first character and its domain', () => {
    assert.equal(maskAddress('alice@example.com'), 'a***@example.com');
    assert.equal(maskAddress('Alice Liddell <alice@example.com>'), 'a***@example.com');
    assert.equal(maskAddress('not-an-address'), '***');
    assert.equal(maskAddress('@example.com'), '***');
  });
});

describe('UnavailableMailer (prod without svc.mail.smtp-url)', () => {
  it('is not available, and a send rejects naming svc.mail.smtp-url', async () => {
    const mailer = new UnavailableMailer();
    assert.equal(mailer.available, false);
    await assert.rejects(mailer.send({ to: 'a@example.com', subject: 's', text: 't' }), /svc\.mail\.smtp-url/);
  });
});
