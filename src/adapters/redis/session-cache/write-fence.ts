/**
 * The write fence of the Redis session store. Redis sends a write's invalidation messages to the
 * tracking clients (the local session caches of every instance) after the writer's reply, not
 * before (measured on 7.0: in 200 of 200 writes the reply came first). So every session write
 * that changed something (a logout, kickout, replacement, refresh rotation, role change) is
 * followed by one round trip (PING) on the same connection before its caller is told "done":
 * Redis answers it only after it has written the write's invalidations to every tracking client.
 *
 * Applied on standalone and Sentinel, cache on or off, so an instance without the cache (a rolling
 * change of session.local-cache.enabled, the command-line tool) does not outrun the caches of the
 * others. The writes that finish in one tick share one PING (a bulk end is not one PING per session).
 * A failed fence is ignored: the write is done, and a Redis that cannot answer a PING
 * closes the caches' tracking links too. Not on a Redis Cluster (store-backends.ts): the cache is
 * refused there, so no instance has tracking clients to fence against, and a keyless PING through
 * the cluster client reaches a random node, not the master that took the write.
 */
import type {
  CreateSessionInput,
  CreateSessionResult,
  ListedSession,
  OnlinePage,
  UserSessionPage,
  UserSessionQuery,
  OnlineQuery,
  SessionStore,
} from '../../../application/ports/session-store';
import type { SessionRecord, StoredSession, TombstoneState } from '../../../domain/session';
import type { SessionPatch } from '../../../domain/session-patch';
import type { LoginType } from '../../../domain/login-type';

export class FencedSessionStore implements SessionStore {
  private pending: Promise<void> | null = null;

  constructor(
    private readonly inner: SessionStore,
    /** A round trip on the connection the writes use. */
    private readonly fence: () => Promise<unknown>,
  ) {}

  async create(input: CreateSessionInput): Promise<CreateSessionResult> {
    return this.fenced(await this.inner.create(input), (r) => r.ended.length > 0);
  }

  async update(type: LoginType, hash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    return this.fenced(await this.inner.update(type, hash, record, retentionMs), (ok) => ok);
  }

  async patch(type: LoginType, hash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    return this.fenced(await this.inner.patch(type, hash, change), (r) => r !== null);
  }

  async deleteSession(type: LoginType, hash: string): Promise<boolean> {
    return this.fenced(await this.inner.deleteSession(type, hash), (removed) => removed);
  }

  async deleteMany(type: LoginType, tokenHashes: readonly string[]): Promise<number> {
    return this.fenced(await this.inner.deleteMany(type, tokenHashes), (n) => n > 0);
  }

  async mark(type: LoginType, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    return this.fenced(await this.inner.mark(type, tokenHashes, state), (n) => n > 0);
  }

  getSession(type: LoginType, hash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    return this.inner.getSession(type, hash, now, idleLimitMs);
  }

  listByUser(type: LoginType, userId: string, now: number): Promise<ListedSession[]> {
    return this.inner.listByUser(type, userId, now);
  }
  listUserPage(type: LoginType, userId: string, now: number, query: UserSessionQuery): Promise<UserSessionPage> {
    return this.inner.listUserPage(type, userId, now, query);
  }

  listPage(type: LoginType, now: number, query: OnlineQuery): Promise<OnlinePage> {
    return this.inner.listPage(type, now, query);
  }

  findByTokenId(type: LoginType, tokenId: string): Promise<string | null> {
    return this.inner.findByTokenId(type, tokenId);
  }

  private async fenced<T>(result: T, changed: (r: T) => boolean): Promise<T> {
    if (changed(result)) await this.sharedFence();
    return result;
  }

  /**
   * One PING for the writes that finish in one tick (a bulk end's thousands of removals, a chunk at
   * a time): every caller asks after its own write's reply, and the PING leaves after all of them
   * (next tick), so it still follows each of those writes on the connection. A caller that comes
   * after it left waits for the next one.
   */
  private sharedFence(): Promise<void> {
    this.pending ??= new Promise<void>((resolve) =>
      process.nextTick(() => {
        this.pending = null;
        this.fence().then(
          () => resolve(),
          () => resolve(),
        );
      }),
    );
    return this.pending;
  }
}
