/**
 * Ending sessions in bulk (kick-all, logout-all, a replacing login, the cap): the session's own
 * step (tombstone or removal, one script on its slot) for many sessions, then their index entries
 * removed grouped by index key. Never one round trip per session on standalone and Sentinel, never
 * a synchronous pass over thousands of sessions:
 *
 * - the per-session scripts of one tick leave as one script call (CommandPerTick; the script's
 *   body run once per session inside it, lua-scripts.ts `perItem`) on standalone and Sentinel,
 *   where every key is on one server; on a cluster (and the tagged layout) each is its own command,
 *   auto-pipelined by the client;
 * - the index removals of one tick are grouped: one ZREM per online bucket, one unindex script per
 *   user (u and um), the token-id drops as one script (standalone) or one command each (cluster);
 * - a bulk end works through its sessions END_CHUNK at a time (two chunks in flight) and yields the
 *   event loop (setImmediate) between rounds, so other requests are served while 10,000 sessions end.
 *
 * The order stays that of one session: its marker (tombstone, or removal) before its index entries.
 */
import type { EndedSession } from '../../application/ports/session-store';
import type { TombstoneState } from '../../domain/session';
import { CommandPerTick } from './command-per-tick';
import type { RedisKeys } from './key-layout';
import type { ScriptRunner } from './lua-scripts';
import { TOMBSTONE_CODES } from './session-codec';
import { activeRecord, type IndexRemoval, type SessionIndexes } from './session-indexes';
import type { SessionValues } from './session-values';

/** Sessions ended per chunk of a bulk end (the loop is yielded between chunks). */
export const END_CHUNK = 500;

/** The scripts the ends run (session-store.ts registers them). */
export type EndScripts = 'agSessionTombstone' | 'agSessionTombstoneMany' | 'agSessionRemove' | 'agSessionRemoveMany';

/** Lets the event loop run what waits (I/O, timers) before the next chunk. */
export const yieldLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Chunks of END_CHUNK sent at once (the server works on one while the other's reply is read). */
const IN_FLIGHT = 2;

/** `each` over `items` END_CHUNK at a time, IN_FLIGHT chunks at once, the loop yielded between rounds; the results in order. */
async function inRounds<T, R>(items: readonly T[], each: (chunk: readonly T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += END_CHUNK * IN_FLIGHT) {
    if (i > 0) await yieldLoop();
    const chunks: Array<readonly T[]> = [];
    for (let j = i; j < Math.min(items.length, i + END_CHUNK * IN_FLIGHT); j += END_CHUNK) chunks.push(items.slice(j, j + END_CHUNK));
    for (const r of await Promise.all(chunks.map(each))) out.push(...r);
  }
  return out;
}

/** session-tombstone.lua's keys and arguments for one session of the one-key layout (its key twice: no last-active key). */
type TombstoneArgs = readonly [n: string, n2: string, code: string, now: string, pending: string, ret: string, tombRet: string];
type TombstoneReply = readonly [string, string?];

export interface EndOptions {
  /** Only sessions not past expiresAt at `now` change (an end at login). */
  readonly now?: number;
  /** The user of the targets (their user-index entries go even when a record is missing). */
  readonly userId?: string;
  /** An end at login: a missing record gets the tombstone first, kept this long (ms, '' = none). */
  readonly ret?: string;
}

export interface Ended {
  readonly sessions: EndedSession[];
  readonly changed: number;
  /** Removes the ended sessions' index entries (after the markers). */
  readonly unindex: () => Promise<void>;
}

export class SessionEnds {
  private readonly tombstones: (args: TombstoneArgs) => Promise<TombstoneReply>;
  private readonly removes: (item: readonly [n: string, n2: string, hash: string]) => Promise<unknown>;
  private readonly unindexes: CommandPerTick<{ readonly type: string; readonly item: IndexRemoval }, null>;

  constructor(
    private readonly keys: RedisKeys,
    run: ScriptRunner<EndScripts>,
    private readonly indexes: SessionIndexes,
    oneConnection: boolean,
    /** A session's own key and the previous layout's (session-values.ts): what a batch found missing is tried there. */
    private readonly values: SessionValues,
    /** The tombstone retention as the script takes it (ms, '' = the session's own TTL). */
    private readonly tombRet: string,
  ) {
    this.unindexes = new CommandPerTick(async (items) => {
      const byType = new Map<string, IndexRemoval[]>();
      for (const { type, item } of items) byType.set(type, [...(byType.get(type) ?? []), item]);
      await Promise.all([...byType].map(([type, list]) => this.indexes.removeMany(type, list)));
      return items.map(() => null);
    }, END_CHUNK);
    if (!oneConnection) {
      this.tombstones = (args) => run('agSessionTombstone', ...args) as Promise<TombstoneReply>;
      this.removes = (item) => run('agSessionRemove', ...item);
      return;
    }
    const tombstones = new CommandPerTick<TombstoneArgs, TombstoneReply>((items) => {
      const keys = items.flatMap(([n, n2]) => [n, n2]);
      const args = items.flatMap(([, , ...rest]) => rest);
      return run('agSessionTombstoneMany', keys.length, ...keys, ...args) as Promise<TombstoneReply[]>;
    });
    const removes = new CommandPerTick<readonly [string, string, string], unknown>((items) => {
      const keys = items.flatMap(([n, n2]) => [n, n2]);
      return run('agSessionRemoveMany', keys.length, ...keys, ...items.map(([, , hash]) => hash)) as Promise<unknown[]>;
    });
    this.tombstones = (args) => tombstones.run(args);
    this.removes = (keys) => removes.run(keys);
  }

  /**
   * Removes one session (its one key; when that is missing, the previous layout's record and
   * last-active keys: SessionValues.remove); the stored value, or null when there was none.
   */
  async remove(type: string, hash: string): Promise<string | null> {
    const key = this.keys.session(type, hash);
    const v = await this.removes([key, key, hash]);
    return typeof v === 'string' ? v : this.values.remove(type, hash);
  }

  /** Removes many sessions, END_CHUNK at a time (two in flight), then each chunk's index entries; how many were removed. */
  async removeMany(type: string, hashes: readonly string[]): Promise<number> {
    const removed = await inRounds(hashes, async (chunk) => {
      const values = await Promise.all(chunk.map((h) => this.remove(type, h)));
      const gone = chunk.flatMap((hash, i) => {
        const v = values[i];
        return typeof v === 'string' ? [{ hash, record: activeRecord(v) }] : [];
      });
      await this.indexes.removeMany(type, gone);
      return gone;
    });
    return removed.length;
  }

  /** Removes index entries; the removals of one tick are grouped by index key. */
  unindex(type: string, item: IndexRemoval): Promise<null> {
    return this.unindexes.run({ type, item });
  }

  /**
   * Tombstones each session with its state, END_CHUNK at a time (two in flight, the loop yielded between rounds);
   * `unindex` then removes their index entries (the marker first: a revocation interrupted half
   * way has already revoked). With `now` (an end at login, with the new session's retention `ret`)
   * only sessions not past expiresAt change, and a record still being written gets the tombstone
   * ahead of it. `changed`: how many active sessions ended; `sessions`: those and the records still
   * being written.
   */
  async endMany(
    type: string,
    targets: ReadonlyArray<{ readonly hash: string; readonly state: TombstoneState }>,
    opts: EndOptions,
  ): Promise<Ended> {
    const k = this.keys;
    const nowArg = opts.now === undefined ? '' : String(opts.now);
    const gone = (
      await inRounds(targets, async (chunk) => {
        const replies = await Promise.all(
          chunk.map(async ({ hash: h, state }): Promise<TombstoneReply> => {
            const n = k.session(type, h);
            const first = await this.tombstones([n, n, TOMBSTONE_CODES[state], nowArg, '0', '', this.tombRet]);
            // Not in the one-key layout: the previous layout's keys, then (an end at login) the pending tombstone.
            return first[0] === 'missing' ? this.values.tombstone(type, h, state, nowArg, opts.ret) : first;
          }),
        );
        return replies.map(([outcome, previous], j) => ({
          h: (chunk[j] as { hash: string }).hash,
          outcome,
          record: outcome === 'kept' || previous === undefined ? null : activeRecord(previous),
        }));
      })
    ).filter((o) => o.outcome !== 'kept');
    return {
      sessions: gone.filter((o) => o.outcome !== 'dead').map((o) => ({ tokenHash: o.h, record: o.record })),
      changed: gone.filter((o) => o.outcome === 'changed').length,
      unindex: async () => {
        await inRounds(gone, async (chunk) => {
          await this.indexes.removeMany(
            type,
            chunk.map((o) => ({ hash: o.h, record: o.record, userId: opts.userId })),
          );
          return [];
        });
      },
    };
  }
}
