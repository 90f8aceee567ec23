/**
 * The store ports every backend provides, the methods of each, and the one mechanism of the layers
 * in store-backends.ts: a layer made for an assembly (LayerInstance) gives a function per port it
 * wraps (Wraps), and applyWraps runs each port through the layers in their order.
 */
import type { AuditStore } from '../application/ports/audit-store';
import type { WebhookOutbox } from '../application/ports/webhook-outbox';
import type { CaptchaStore } from '../application/ports/captcha-store';
import type { KeyValueStore } from '../application/ports/key-value-store';
import type { ListStore } from '../application/ports/list-store';
import type { RateLimitStore } from '../application/ports/rate-limit-store';
import type { SessionStore } from '../application/ports/session-store';
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { Metrics } from '../application/ports/metrics';
import type { StoreHealth } from '../application/ports/store-health';
import type { RedisClient } from '../adapters/redis/redis-client';

/** The store ports every backend provides (StoreHealth aside: it is never wrapped). */
export interface StorePorts {
  readonly sessions: SessionStore;
  readonly kv: KeyValueStore;
  readonly lists: ListStore;
  readonly rateLimits: RateLimitStore;
  /** Captcha answers, single use (take reads and removes). */
  readonly captchas: CaptchaStore;
  /** Security events (the audit trail's `store` sink) and the searches of the login and operation logs. */
  readonly audit: AuditStore;
  /** Pending webhook deliveries of the audit trail's `webhook` sink. */
  readonly webhooks: WebhookOutbox;
}
export type PortName = keyof StorePorts;

/** Every method of a port, exactly: a method added to the port and missing here is a compile error (it would escape failClosed). */
function allMethods<T>() {
  return <const M extends readonly (keyof T)[]>(methods: M & ([Exclude<keyof T, M[number]>] extends [never] ? unknown : never)): M =>
    methods;
}

const SESSION_METHODS = allMethods<SessionStore>()([
  'create',
  'getSession',
  'update',
  'patch',
  'deleteSession',
  'deleteMany',
  'mark',
  'listByUser',
  'listUserPage',
  'listPage',
  'findByTokenId',
]);
const KV_METHODS = allMethods<KeyValueStore>()([
  'get',
  'set',
  'setMany',
  'setIfAbsent',
  'getAndDelete',
  'delete',
  'deleteIfEquals',
  'deleteIfEqualsAndSet',
  'setIfAbsentOrGet',
  'replaceIfEquals',
  'increment',
]);
/** The session writes a client is told succeeded: a login, a logout or kickout tombstone, a session change. */
export const SESSION_WRITES = ['create', 'deleteSession', 'deleteMany', 'mark', 'update', 'patch'] as const;
/** Every key-value call but the plain read: nonces, idempotency results, refresh and one-time tokens. */
export const KV_WRITES = KV_METHODS.filter((m) => m !== 'get');
const LIST_METHODS = allMethods<ListStore>()(['append', 'list']);
const RL_METHODS = allMethods<RateLimitStore>()(['hit', 'reset']);
const CAPTCHA_METHODS = allMethods<CaptchaStore>()(['save', 'take']);
const AUDIT_METHODS = allMethods<AuditStore>()(['append', 'query', 'verifyChain']);
const WEBHOOK_METHODS = allMethods<WebhookOutbox>()(['enqueue', 'head', 'ack', 'defer', 'lease', 'release']);

/** Some methods of some ports. */
export type PortMethods = { readonly [P in PortName]?: readonly (keyof StorePorts[P])[] };
const PORT_METHODS: Required<PortMethods> = {
  sessions: SESSION_METHODS,
  kv: KV_METHODS,
  lists: LIST_METHODS,
  rateLimits: RL_METHODS,
  captchas: CAPTCHA_METHODS,
  audit: AUDIT_METHODS,
  webhooks: WEBHOOK_METHODS,
};

/** The store label of each port in the store-call metrics. */
export const METRIC_LABELS: { readonly [P in PortName]: string } = {
  sessions: 'session',
  kv: 'key-value',
  lists: 'list',
  rateLimits: 'rate-limit',
  captchas: 'captcha',
  audit: 'audit',
  webhooks: 'webhook-outbox',
};

/** How one layer wraps each port it applies to (a port it leaves out is passed on as it is). */
export type Wraps = { readonly [P in PortName]?: (port: StorePorts[P]) => StorePorts[P] };

/** A decorator of one port: `port` with (some of) `methods` wrapped. */
type PortDecorator = <T extends object>(port: T, methods: readonly (keyof T)[], name: PortName) => T;

/** `fn` over the ports `methods` names (default: every method of every port). */
export function methodWraps(fn: PortDecorator, methods: PortMethods = PORT_METHODS): Wraps {
  const { sessions, kv, lists, rateLimits, captchas, audit, webhooks } = methods;
  return {
    ...(sessions ? { sessions: (p: SessionStore) => fn(p, sessions, 'sessions') } : {}),
    ...(kv ? { kv: (p: KeyValueStore) => fn(p, kv, 'kv') } : {}),
    ...(lists ? { lists: (p: ListStore) => fn(p, lists, 'lists') } : {}),
    ...(rateLimits ? { rateLimits: (p: RateLimitStore) => fn(p, rateLimits, 'rateLimits') } : {}),
    ...(captchas ? { captchas: (p: CaptchaStore) => fn(p, captchas, 'captchas') } : {}),
    ...(audit ? { audit: (p: AuditStore) => fn(p, audit, 'audit') } : {}),
    ...(webhooks ? { webhooks: (p: WebhookOutbox) => fn(p, webhooks, 'webhooks') } : {}),
  };
}

/** `port` through each of `layers`' wrap for it, in order. */
function through<P extends PortName>(name: P, port: StorePorts[P], layers: readonly { readonly wraps: Wraps }[]): StorePorts[P] {
  let p = port;
  for (const { wraps } of layers) {
    const wrap = wraps[name];
    if (wrap !== undefined) p = wrap(p);
  }
  return p;
}

/** Every port through `layers`, innermost first. */
export function applyWraps(ports: StorePorts, layers: readonly { readonly wraps: Wraps }[]): StorePorts {
  return {
    sessions: through('sessions', ports.sessions, layers),
    kv: through('kv', ports.kv, layers),
    lists: through('lists', ports.lists, layers),
    rateLimits: through('rateLimits', ports.rateLimits, layers),
    captchas: through('captchas', ports.captchas, layers),
    audit: through('audit', ports.audit, layers),
    webhooks: through('webhooks', ports.webhooks, layers),
  };
}

/** Handles of the local session cache, for the composition roots (metrics, hit ordering). */
export interface SessionCacheHandles {
  /** Reports the process's local session cache to an app's metrics. */
  readonly reportSessionCache: (metrics: Metrics) => void;
  /**
   * Tells the cache that a reader cannot guarantee the check-phase start its 'caller' hit
   * ordering relies on (`why`), so its hits wait their own turn from now on.
   */
  readonly sessionReaderWithoutCheckPhaseEdge: (why: string) => void;
}

/** A layer as made for one assembly: its wraps, and what it holds open (closed before the backend). */
export interface LayerInstance {
  readonly wraps: Wraps;
  readonly close?: () => Promise<void>;
  readonly sessionCache?: SessionCacheHandles;
}

export interface StoreAssemblyOptions {
  readonly log: Logger;
  readonly clock: Clock;
  /** Redis key prefix override (tests). */
  readonly keyPrefix?: string;
  /** See InfrastructureOptions.sessionReaders: 'tools' never gets a local session cache. */
  readonly sessionReaders: 'http-apps' | 'tools';
}

/** What the per-app layers see: the app's metrics (each app of a process counts its own store calls). */
export interface AppContext {
  readonly metrics: Metrics;
}

/** A backend's raw ports, before any layer, and its client for the Redis layers. */
export interface RawStores {
  readonly ports: StorePorts;
  readonly health: StoreHealth;
  readonly client: RedisClient | null;
  readonly connect: (() => RedisClient) | null;
  /** Closes the backend (its client, ending every store on it). */
  close(): Promise<void>;
}

/** The Redis connection settings the layers read (svc.redis.*; the configuration's RedisSettings adds the mode). */
export interface RedisConnectionSettings {
  /** Standalone: the server. Sentinel: only its credentials and database are used; cluster: only its credentials ('' = none). */
  readonly url: string;
  /** The data password: svc.redis.password, else the URL's ('' = none). */
  readonly password: string;
  readonly sentinels: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  /** Cluster mode: the seed nodes (any one that answers is enough to discover the others). */
  readonly nodes: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  readonly masterName: string;
  /** AUTH of the Sentinels themselves ('' = none). */
  readonly sentinelPassword: string;
  /** Acknowledged writes wait for this many replicas (WAIT); 0 = no waiting. */
  readonly waitReplicas: number;
  readonly keyPrefix: string;
  readonly commandTimeoutMs: number;
  /** Ms between ticks of the online index sweeper (svc.redis.index-sweep-ms); 0 = none. */
  readonly indexSweepMs: number;
}

/** The per-process session cache of the Redis store (session.local-cache.*). */
export interface SessionCacheSettings {
  readonly enabled: boolean;
  readonly maxEntries: number;
  readonly ttlMs: number;
}

/** The settings the layers read (store-backends.ts's StoreSettings adds the backend's names). */
export interface LayerSettings {
  readonly profile: string;
  readonly redis: RedisConnectionSettings;
  readonly sessionCache: SessionCacheSettings;
}

/** What the process-wide layers see of one assembly. */
export interface ProcessContext {
  readonly settings: LayerSettings;
  readonly opts: StoreAssemblyOptions;
  readonly keyPrefix: string;
  /** The backend's Redis client (null on a backend without one: its entry lists no Redis layer). */
  readonly client: RedisClient | null;
  /** A new client made as `client` was (the session cache's tracking connections). */
  readonly connect: (() => RedisClient) | null;
}

/** The backend's client (or connector) a Redis layer needs: a backend without one must not list that layer. */
export function need<T>(value: T | null, layer: string): T {
  if (value === null) throw new Error(`store layer '${layer}' needs a Redis client: its backend entry must not list it`);
  return value;
}
