/**
 * The two connections that keep a session cache coherent (Redis server-assisted client-side
 * caching, RESP2): a reader with `CLIENT TRACKING ON REDIRECT <id>` whose reads Redis remembers,
 * and a connection subscribed to `__redis__:invalidate` (the redirect target) that receives the
 * names of the keys written since (a null message when a database was flushed).
 *
 * The link is usable only while both connections are up and tracking has been proven end to end:
 * the reader reads a probe key and writes it, and the invalidation must come back on the
 * subscriber (at the start and every heartbeat). Any close, end, error of either connection or a
 * failed probe ends this incarnation of the link (`down`: the cache flushes and is bypassed);
 * a new pair of connections is then made, with a new redirect id, until one is proven (`ready`).
 * New connections come from the factory of the main client, so under Sentinel they reach the
 * master the Sentinels name now (a failover closes the old ones).
 */
import type Redis from 'ioredis';
import type { Logger } from '../../../application/ports/logger';

export const INVALIDATE_CHANNEL = '__redis__:invalidate';

/** What the link tells its cache. */
export interface TrackingEvents {
  /** Tracking is proven: the cache may be used (it is empty). */
  ready(): void;
  /** Invalidations may have been missed: flush, and bypass until ready. */
  down(reason: string): void;
  /** These keys were written (or expired, or evicted from Redis' tracking table). */
  invalidate(keys: readonly string[]): void;
  /** A database was flushed (a null invalidation message). */
  flushAll(): void;
}

/** The read a cache makes on the tracking connection. */
export interface TrackedReader {
  /**
   * A session's value, on the tracking connection: GET and PTTL of its key; when missing, in a second round
   * trip, MGET of the previous layout's record and last-active keys and the record's PTTL (so Redis tracks
   * one key per cached session of the new layout). [session key's value, null, its PTTL] when
   * the session key exists, else [previous record, previous last-active, the previous record's PTTL].
   */
  read(sessionKey: string, legacyKey: string, lastActiveKey: string): Promise<[string | null, string | null, number]>;
}

export interface SessionTracking extends TrackedReader {
  start(events: TrackingEvents): void;
  close(): Promise<void>;
}

export interface TrackingLinkOptions {
  /** A new connection to the master, from the main client's factory. */
  readonly connect: () => Redis;
  /** A key of the deployment's own key space the link may write (its probe; PX 30 s). */
  readonly probeKey: string;
  /** The two connections' CLIENT SETNAME is this plus `:reader` / `:invalidations`. */
  readonly name: string;
  readonly log: Logger;
  /** Ms between probes of a ready link. Default 1000. */
  readonly heartbeatMs?: number;
  /** Ms a probe's invalidation may take. Default 2000. */
  readonly probeTimeoutMs?: number;
}

interface Incarnation {
  readonly reader: Redis;
  readonly sub: Redis;
  dead: boolean;
  probe?: { resolve(): void };
  /** A heartbeat probe of this pair is waiting for its echo (per pair: a lost pair's pending probe must not hold back the next pair's
   * heartbeat). */
  probing?: boolean;
}

const retryDelay = (attempt: number): number => Math.min(100 * attempt, 1000);

export class TrackingLink implements SessionTracking {
  private events: TrackingEvents | undefined;
  private current: Incarnation | null = null;
  private ready: Incarnation | null = null;
  private attempt = 0;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly opts: TrackingLinkOptions) {}

  start(events: TrackingEvents): void {
    this.events = events;
    this.open();
  }

  read(sessionKey: string, legacyKey: string, lastActiveKey: string): Promise<[string | null, string | null, number]> {
    const inc = this.ready;
    if (inc === null) return Promise.reject(new Error('session cache: the tracking link is down'));
    const r = inc.reader;
    return Promise.all([r.get(sessionKey), r.pttl(sessionKey)]).then(async ([v, pttl]) => {
      if (v !== null) return [v, null, pttl];
      if (legacyKey === sessionKey) return [null, null, -2];
      // Not there: a session of the previous release (until they are all gone), or none. A second round trip.
      const [[legacy, a], legacyPttl] = await Promise.all([r.mget(legacyKey, lastActiveKey), r.pttl(legacyKey)]);
      return legacy === null || legacy === undefined ? [null, null, -2] : [legacy, a ?? null, legacyPttl];
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    if (this.current !== null) this.lost(this.current, 'closed');
  }

  private open(): void {
    if (this.closed) return;
    const inc: Incarnation = { reader: this.opts.connect(), sub: this.opts.connect(), dead: false };
    this.current = inc;
    for (const conn of [inc.reader, inc.sub]) {
      for (const event of ['close', 'end', 'reconnecting'] as const) conn.once(event, () => this.lost(inc, `connection ${event}`));
      // ioredis reacts to the socket's 'close' only, which Node emits in the close-callbacks phase, after
      // the check phase in which the apps answer cache hits (hitOrdering 'caller'). A FIN read ('end')
      // and a reset or other socket error ('error', which ioredis passes on at once) come in the poll
      // phase that read them: end the link there, before any request read in that turn is answered.
      conn.once('ready', () => conn.stream?.once('end', () => this.lost(inc, 'connection end')));
      conn.on('error', (e: unknown) => this.lost(inc, `connection error: ${e instanceof Error ? e.message : String(e)}`));
    }
    this.setUp(inc).then(
      () => {
        if (inc.dead) return;
        this.ready = inc;
        this.attempt = 0;
        this.heartbeat = setInterval(() => this.beat(inc), this.opts.heartbeatMs ?? 1000);
        this.heartbeat.unref();
        this.opts.log.info({}, 'session cache: tracking link ready');
        this.events?.ready();
      },
      (e: unknown) => {
        const reason = `set-up failed: ${e instanceof Error ? e.message : String(e)}`;
        // Logged at the first failure and every 60th after (a Redis that refuses CLIENT TRACKING keeps the cache bypassed).
        if (!inc.dead && this.attempt % 60 === 0)
          this.opts.log.warn(
            { reason, attempts: this.attempt + 1 },
            'session cache: the tracking link cannot be set up; the cache stays bypassed',
          );
        this.lost(inc, reason);
      },
    );
  }

  private async setUp(inc: Incarnation): Promise<void> {
    const { sub, reader } = inc;
    const { name } = this.opts;
    await Promise.all([sub.client('SETNAME', `${name}:invalidations`), reader.client('SETNAME', `${name}:reader`)]);
    const subId = Number(await sub.client('ID'));
    sub.on('messageBuffer', (_channel: Buffer, message: Buffer[] | Buffer | null) => this.onMessage(inc, message));
    await sub.subscribe(INVALIDATE_CHANNEL);
    await reader.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', String(subId));
    await this.probe(inc);
  }

  /** Reads the probe key on the reader and writes it there: its invalidation must come back on the subscriber. */
  private async probe(inc: Incarnation): Promise<void> {
    const timeoutMs = this.opts.probeTimeoutMs ?? 2000;
    let timer: NodeJS.Timeout | undefined;
    const echoed = new Promise<void>((resolve, reject) => {
      inc.probe = { resolve };
      timer = setTimeout(() => reject(new Error(`no invalidation of the probe key within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.all([inc.reader.get(this.opts.probeKey), inc.reader.set(this.opts.probeKey, '1', 'PX', 30_000), echoed]);
    } finally {
      clearTimeout(timer);
      inc.probe = undefined;
    }
  }

  private beat(inc: Incarnation): void {
    if (inc.dead || inc.probing) return;
    inc.probing = true;
    this.probe(inc).then(
      () => (inc.probing = false),
      (e: unknown) => {
        inc.probing = false;
        this.lost(inc, `heartbeat failed: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  }

  private onMessage(inc: Incarnation, message: Buffer[] | Buffer | null): void {
    if (inc.dead) return;
    if (message === null) {
      if (this.ready === inc) this.events?.flushAll();
      return;
    }
    const keys = Array.isArray(message) ? message.map(String) : [String(message)];
    if (inc.probe !== undefined && keys.includes(this.opts.probeKey)) inc.probe.resolve();
    if (this.ready === inc) this.events?.invalidate(keys);
  }

  /** Ends an incarnation: the cache flushes if it was the ready one; a new one follows unless closed. */
  private lost(inc: Incarnation, reason: string): void {
    if (inc.dead) return;
    inc.dead = true;
    inc.reader.disconnect();
    inc.sub.disconnect();
    if (this.ready === inc) {
      this.ready = null;
      clearInterval(this.heartbeat);
      if (!this.closed) {
        this.opts.log.warn({ reason }, 'session cache: tracking link down, cache flushed and bypassed until it is back');
        this.events?.down(reason);
      }
    }
    if (this.current === inc && !this.closed) {
      this.current = null;
      this.retryTimer = setTimeout(() => this.open(), retryDelay(++this.attempt));
      this.retryTimer.unref();
    }
  }
}
