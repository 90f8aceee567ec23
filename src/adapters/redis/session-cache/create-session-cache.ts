/** The local session cache on a Redis deployment: the cached store, its tracking link, its metrics. */
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { Clock } from '../../../application/ports/clock';
import type { Logger } from '../../../application/ports/logger';
import type { SessionStore } from '../../../application/ports/session-store';
import { RedisKeys } from '../key-layout';
import { CachedSessionStore, type CachedSessionStoreDeps, type SessionCacheOptions } from './cached-session-store';
import { SessionCacheMetricsFanout } from './metrics-fanout';
import { TrackingLink, type TrackingLinkOptions } from './tracking-link';

export interface SessionCacheWiring {
  /** The Redis session store. */
  readonly inner: SessionStore;
  /** A new connection made as the main client was (the tracking link's two). */
  readonly connect: () => Redis;
  readonly keyPrefix: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly options: SessionCacheOptions;
  /** See CachedSessionStoreDeps.hitOrdering (default 'own-turn'). */
  readonly hitOrdering?: CachedSessionStoreDeps['hitOrdering'];
  /** Heartbeat and probe timeout of the tracking link (tests). */
  readonly link?: Pick<TrackingLinkOptions, 'heartbeatMs' | 'probeTimeoutMs'>;
}

export interface SessionCache {
  readonly store: CachedSessionStore;
  /** Where each app registers its metrics. */
  readonly metrics: SessionCacheMetricsFanout;
  /** The tracking connections' name, before `:reader` / `:invalidations` (CLIENT LIST). */
  readonly linkName: string;
}

/** Prefix of the tracking connections' names: `authguard-session-cache:<pid>:<random>`. */
export const LINK_NAME_PREFIX = 'authguard-session-cache';

export function createSessionCache(w: SessionCacheWiring): SessionCache {
  const keys = new RedisKeys(w.keyPrefix);
  const metrics = new SessionCacheMetricsFanout();
  const linkName = `${LINK_NAME_PREFIX}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const tracking = new TrackingLink({
    ...w.link,
    connect: w.connect,
    // The probe lives in the key-value space, under a name no store uses, unique to this link.
    probeKey: keys.keyValue(`session-cache-probe:${linkName}`),
    name: linkName,
    log: w.log,
  });
  const store = new CachedSessionStore({
    inner: w.inner,
    keys,
    tracking,
    clock: w.clock,
    metrics,
    options: w.options,
    hitOrdering: w.hitOrdering ?? 'own-turn',
  });
  return { store: store.start(), metrics, linkName };
}
