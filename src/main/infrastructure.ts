/**
 * The store and the other process-wide resources, created once per process and shared by the
 * apps of that process (so `npm start` runs admin and web on one in-memory store).
 */
import type { Clock } from '../application/ports/clock';
import type { Logger } from '../application/ports/logger';
import type { Mailer } from '../application/ports/mailer';
import type { Metrics } from '../application/ports/metrics';
import type { StoreHealth } from '../application/ports/store-health';
import type { PasswordHasher } from '../application/ports/password-hasher';
import { PooledBcryptHasher } from '../adapters/crypto/bcrypt-hasher';
import type { MemoryMailbox } from '../adapters/mail/memory-mailbox';
import { CryptoWorkerPool } from '../adapters/crypto/worker-pool';
import { configWarnings, type AppConfig } from './config';
import { createDirectories, type Directories } from './directories';
import { createMailer } from './mailer';
import { assembleStores, type StoreBackend, type StorePorts } from './store-backends';

/** The store ports are the configured backend's through its process-wide layers (store-backends.ts). */
export interface Infrastructure extends StorePorts {
  readonly clock: Clock;
  readonly log: Logger;
  /** Writer of the access lines (an unredacted child of `log`: the access line is an allowlist). */
  readonly accessLog: Logger;
  readonly health: StoreHealth;
  /** The backend of the store ports; each app's container applies its per-app layers (decorateForApp). */
  readonly storeBackend: StoreBackend;
  /** Worker threads for BCrypt and PKCS#1 RSA (shared by the apps of the process). */
  readonly cryptoPool: CryptoWorkerPool;
  /** BCrypt on that pool. */
  readonly hasher: PasswordHasher;
  /** Admin users and members (svc.directory); null while no directory backend is configured. */
  readonly directories: Directories;
  /** Outgoing e-mail (svc.mail.smtp-url; see mailer.ts), shared by the apps of the process. */
  readonly mailer: Mailer;
  /** The embedded mailbox when it is the mailer (dev and test without svc.mail.smtp-url), else null. */
  readonly mailbox: MemoryMailbox | null;
  /** Reports the process's local session cache to an app's metrics (a no-op without the cache). */
  readonly reportSessionCache?: (metrics: Metrics) => void;
  /**
   * Tells the local session cache (if any) that a reader cannot guarantee the check-phase start
   * its 'caller' hit ordering relies on (`why`), so its hits wait their own turn from now on.
   */
  readonly sessionReaderWithoutCheckPhaseEdge?: (why: string) => void;
  /** Runs `fn` first when the infrastructure closes (an app's audit trail writes what it holds before the store goes). */
  onClose(fn: () => Promise<void>): void;
  close(): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface InfrastructureOptions {
  readonly log: Logger;
  /** Defaults to `log`. */
  readonly accessLog?: Logger;
  readonly clock?: Clock;
  /** Redis key prefix override (tests). */
  readonly keyPrefix?: string;
  /** The user directories to use instead of those svc.directory names (the CLI's writable file directory). */
  readonly directories?: Directories;
  /**
   * Who reads sessions through this infrastructure. 'http-apps' (default): only the HTTP apps, whose
   * edge starts every request after the I/O of the turn that read it, so the local session cache
   * (if configured) answers hits at once (hitOrdering 'caller'). 'tools' (the command-line tools):
   * no local cache at all, whatever the configuration says; a tool is a short-lived process that
   * would only open tracking connections for nothing.
   */
  readonly sessionReaders?: 'http-apps' | 'tools';
}

export function createInfrastructure(config: AppConfig, opts: InfrastructureOptions): Infrastructure {
  const clock = opts.clock ?? systemClock;
  for (const warning of configWarnings(config)) opts.log.warn({}, warning);
  const cryptoPool = new CryptoWorkerPool(config.cryptoWorkerThreads);
  const hasher = new PooledBcryptHasher(cryptoPool);
  const directories = opts.directories ?? createDirectories(config, opts.log);
  const mail = createMailer(config, { log: opts.log, clock });
  const stores = assembleStores(config, {
    log: opts.log,
    clock,
    sessionReaders: opts.sessionReaders ?? 'http-apps',
    ...(opts.keyPrefix === undefined ? {} : { keyPrefix: opts.keyPrefix }),
  });
  const closers: Array<() => Promise<void>> = [];
  return {
    clock,
    log: opts.log,
    accessLog: opts.accessLog ?? opts.log,
    ...stores.ports,
    health: stores.health,
    storeBackend: stores.backend,
    cryptoPool,
    hasher,
    directories,
    mailer: mail.mailer,
    mailbox: mail.mailbox,
    reportSessionCache: stores.sessionCache?.reportSessionCache,
    sessionReaderWithoutCheckPhaseEdge: stores.sessionCache?.sessionReaderWithoutCheckPhaseEdge,
    onClose: (fn) => void closers.push(fn),
    close: async () => {
      for (const fn of closers.splice(0)) await fn().catch((err: unknown) => opts.log.warn({ err }, 'closing: a step failed'));
      await cryptoPool.close();
      await stores.close();
      await directories.close();
      await mail.close();
    },
  };
}
