/**
 * QueuedAuditTrail: recording returns at once and never fails; sinks are written in batches off
 * the request path; a failing sink is retried with backoff and loses nothing; a full queue drops,
 * counts and logs.
 */
import assert from 'node:assert/strict';
import { QueuedAuditTrail, type AuditMetrics, type AuditQueueSettings } from '../../src/application/audit/queued-audit-trail';
import type { SecurityEvent } from '../../src/application/audit/security-event';
import type { AuditSink } from '../../src/application/ports/audit-trail';
import type { Logger } from '../../src/application/ports/logger';
import { BowserUserAgentParser } from '../../src/adapters/audit/bowser-user-agent-parser';

class CountingMetrics implements AuditMetrics {
  readonly counts = new Map<string, number>();
  readonly depth = new Map<string, number>();
  auditEvents(sink: string, outcome: string, count: number): void {
    this.counts.set(`${sink}:${outcome}`, (this.counts.get(`${sink}:${outcome}`) ?? 0) + count);
  }
  auditQueueDepth(sink: string, depth: number): void {
    this.depth.set(sink, depth);
  }
}

class CapturingLog implements Logger {
  readonly lines: Array<{ level: string; obj: object; msg?: string }> = [];
  debug = (obj: object, msg?: string) => void this.lines.push({ level: 'debug', obj, msg });
  info = (obj: object, msg?: string) => void this.lines.push({ level: 'info', obj, msg });
  warn = (obj: object, msg?: string) => void this.lines.push({ level: 'warn', obj, msg });
  error = (obj: object, msg?: string) => void this.lines.push({ level: 'error', obj, msg });
}

/** A sink that keeps what it is given and fails while `down` is true. */
class TestSink implements AuditSink {
  readonly batches: SecurityEvent[][] = [];
  down = false;
  constructor(readonly name = 'test') {}
  async write(events: readonly SecurityEvent[]): Promise<void> {
    if (this.down) throw new Error('sink down');
    this.batches.push([...events]);
  }
  get events(): SecurityEvent[] {
    return this.batches.flat();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function trailOf(sinks: AuditSink[], settings: Partial<AuditQueueSettings> = {}) {
  const metrics = new CountingMetrics();
  const log = new CapturingLog();
  const trail = new QueuedAuditTrail(sinks, {
    clock: { now: () => Date.now() },
    log,
    metrics,
    userAgents: new BowserUserAgentParser(),
    settings: { queueSize: 1000, batchSize: 200, retryBaseMs: 10, retryMaxMs: 40, ...settings },
  });
  return { trail, metrics, log };
}

const login = (username: string) =>
  ({
    type: 'login',
    loginType: 'web',
    outcome: 'success',
    username,
    ip: '10.0.0.1',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0',
  }) as const;

describe('QueuedAuditTrail', () => {
  it('writes nothing during record; the next turn writes the event with its parsed user agent', async () => {
    const sink = new TestSink();
    const { trail, metrics } = trailOf([sink]);
    trail.record(login('ann'));
    assert.equal(sink.batches.length, 0, 'nothing written on the request path');
    await sleep(5);
    assert.equal(sink.events.length, 1);
    const [e] = sink.events;
    assert.equal(e?.username, 'ann');
    assert.deepEqual(e?.userAgent, { os: 'Linux', browser: 'Firefox 121', deviceType: 'desktop' });
    assert.match(e?.id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(metrics.counts.get('test:written'), 1);
  });

  it('writes in batches of batchSize, in order, to every sink', async () => {
    const [a, b] = [new TestSink('a'), new TestSink('b')];
    const { trail } = trailOf([a, b], { batchSize: 200 });
    for (let i = 0; i < 450; i++) trail.record(login(`u${i}`));
    await trail.flush();
    assert.deepEqual(
      a.batches.map((x) => x.length),
      [200, 200, 50],
    );
    assert.deepEqual(
      b.events.map((e) => e.username),
      Array.from({ length: 450 }, (_, i) => `u${i}`),
    );
    const ids = a.events.map((e) => e.id);
    assert.deepEqual([...ids].sort(), ids, 'ids sort in the order recorded');
  });

  it('retries a failing sink with backoff and loses nothing; the other sink is not held up', async () => {
    const [down, up] = [new TestSink('down'), new TestSink('up')];
    down.down = true;
    const { trail, metrics, log } = trailOf([down, up]);
    for (let i = 0; i < 3; i++) trail.record(login(`u${i}`));
    await sleep(60);
    assert.equal(up.events.length, 3);
    assert.equal(down.events.length, 0);
    assert.ok((metrics.counts.get('down:failed') ?? 0) >= 6, 'several attempts, each counted');
    assert.equal(metrics.depth.get('down'), 3);
    assert.ok(log.lines.some((l) => l.level === 'warn' && l.msg === 'audit: sink write failed'));
    down.down = false;
    trail.record(login('u3'));
    await sleep(80);
    assert.deepEqual(
      down.events.map((e) => e.username),
      ['u0', 'u1', 'u2', 'u3'],
    );
    assert.equal(metrics.counts.get('down:written'), 4);
    assert.equal(metrics.depth.get('down'), 0);
    assert.ok(log.lines.some((l) => l.msg === 'audit: sink writes again'));
  });

  it('a full queue drops what does not fit: counted, and logged once with the count', async () => {
    const sink = new TestSink();
    sink.down = true;
    const { trail, metrics, log } = trailOf([sink], { queueSize: 100, retryBaseMs: 10_000, retryMaxMs: 10_000 });
    for (let i = 0; i < 130; i++) trail.record(login(`u${i}`));
    assert.equal(metrics.counts.get('test:dropped'), 30);
    assert.equal(trail.depths().test, 100);
    assert.equal(log.lines.filter((l) => l.msg === 'audit: queue full, events dropped').length, 1);
    sink.down = false;
    await trail.flush();
    assert.deepEqual(
      sink.events.map((e) => e.username),
      Array.from({ length: 100 }, (_, i) => `u${i}`),
      'the oldest are kept',
    );
  });

  it('record never throws: a sink that never answers, a broken clock, a recorder bug', async () => {
    const hanging: AuditSink = { name: 'hang', write: () => new Promise(() => undefined) };
    const { trail } = trailOf([hanging]);
    for (let i = 0; i < 5; i++) trail.record(login('x'));
    const broken = new QueuedAuditTrail([new TestSink()], {
      clock: {
        now: () => {
          throw new Error('clock');
        },
      },
      log: new CapturingLog(),
      metrics: new CountingMetrics(),
      userAgents: new BowserUserAgentParser(),
      settings: { queueSize: 10, batchSize: 10, retryBaseMs: 10, retryMaxMs: 10 },
    });
    assert.doesNotThrow(() => broken.record(login('x')));
    const sink = new TestSink();
    const { trail: t2, log } = trailOf([sink]);
    t2.record({ type: 'no-such-type' as never, loginType: 'web', outcome: 'success' });
    t2.record(login('kept'));
    await t2.flush();
    assert.deepEqual(
      sink.events.map((e) => e.username),
      ['kept'],
    );
    assert.ok(log.lines.some((l) => l.level === 'error'));
  });

  it('close writes what is queued, then records nothing more', async () => {
    const sink = new TestSink();
    const { trail } = trailOf([sink]);
    trail.record(login('a'));
    await trail.close();
    trail.record(login('b'));
    await sleep(5);
    assert.deepEqual(
      sink.events.map((e) => e.username),
      ['a'],
    );
  });
});
