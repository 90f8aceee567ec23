/**
 * The Redis key layout of every store class, written down once. All keys live under one key
 * prefix (<p>, never containing `{` or `}`); the stores of one deployment share it and one client.
 *
 * Two spellings of one layout:
 * - plain (standalone and Sentinel): the names every release so far wrote, so live data keeps
 *   working across the upgrade with no migration;
 * - tagged (Redis Cluster): the same names with a hash tag `{...}` around the part that decides
 *   the slot. A cluster deployment starts on an empty keyspace (no release wrote to a cluster
 *   before), so it needs no migration either. Text inside a tag has `%`, `{`, `}` escaped
 *   (%25, %7B, %7D) so no user-chosen id (a user id, a nonce) can move a key to another slot.
 *
 * Every script runs on the keys it is given in KEYS and all of them share one slot; no script
 * builds a key name. What shares a slot, and why:
 *
 *   plain                      tagged                        slot decided by
 *   <p>s:<type>:<id>           <p>s:{<type>:<id>}            the session (id: the first 32 hex digits of
 *                                                            its token hash, which is also its token id):
 *                                                            ONE key holding '<lastActive>|<hash>|<record>'
 *                                                            (the record packed, session-pack.ts) or a
 *                                                            one-letter tombstone kept for
 *                                                            session.tombstone-retention (session-codec.ts)
 *   previous layout, read until its sessions are gone (never written for a new session):
 *   <p>s:<type>:<hash>         <p>s:{<type>:<hash>}          the session: record JSON (or tombstone
 *   <p>a:<type>:<hash>         <p>a:{<type>:<hash>}          'kicked-out' / 'replaced') and its
 *                                                            last-active time share a slot
 *   <p>t:<type>:<tokenId>      <p>t:{<type>:<tokenId>}       16-hex token id -> token hash (also written
 *                                                            for a record whose token id is not its key id)
 *   <p>u:<type>:<userId>       <p>u:{<type>:<userId>}        the user: ZSET of the user's session
 *                                                            hashes (score = retention deadline)
 *   <p>um:<type>:<userId>      <p>um:{<type>:<userId>}       and a HASH beside it: per hash the order
 *                                                            it was indexed in, its createdAt, expiresAt,
 *                                                            device type and whether a login is ending
 *                                                            it ('seq|createdAt|expiresAt|ending|device',
 *                                                            counter '#seq'), so the admission of a login
 *                                                            (replaced range, exit mode, the cap) is one
 *                                                            script over one slot
 *   <p>all:<type>:<n>          <p>all:{<type>:<n>}           one of ALL_BUCKETS buckets (n from the
 *                                                            hash): the per-type online index (score
 *                                                            = createdAt), spread over the masters on
 *                                                            a cluster and bounded in size everywhere
 *                                                            (no key over a few MB at 1M sessions);
 *                                                            GET /monitor/online merges the buckets.
 *   <p>all:<type>              (none)                        the ONE online index of the releases
 *                                                            before the buckets (plain layout only):
 *                                                            still listed as one more bucket, drained
 *                                                            into the buckets by the index sweeper,
 *                                                            its entries removed with their session;
 *                                                            in the tagged layout, an entry of a release
 *                                                            with 16 buckets sits in bucket n mod 16
 *                                                            (previousBucket) until the sweeper moves it
 *   <p>kv:<ns>:<subject>       <p>kv:<ns>:{<subject>}        the subject: the key-value records about
 *                                                            one thing share a slot (rt:<type>:<h>
 *                                                            and rtused:<type>:<h>: consuming a
 *                                                            refresh token and recording its use is
 *                                                            one script); a key without ':' is its
 *                                                            own subject
 *   <p>l:<key>                 <p>l:{<key>}                  the list
 *   <p>rl:<key>                <p>rl:{<key>}                 the rate-limit log
 *   <p>ev:<type>:<log>         <p>ev:{<type>:<log>}          the audit stream of a login type's
 *   <p>evb:<type>:<log>        <p>evb:{<type>:<log>}         login or operation log, and the ids
 *                                                            of the last batches appended to it
 *   <p>wh:<ep>:<part>          <p>wh:{<ep>}:<part>           a webhook endpoint's outbox: queue (q),
 *                                                            head state (s), lease, recent batches
 *
 * A captcha answer is the key-value key captcha:<scope>:<uuid> (JSON {"answer", "expiresAt"},
 * also read: {"a", "exp"}). RedisStoreHealth owns no keys.
 *
 * A session's own key (s; the previous layout's s and a) is one slot; the indexes (u, t, all) are others,
 * and a session of the previous layout is in another slot than the key its token hash names now: a
 * read that finds no session key reads the previous layout's keys with a second command. So the session
 * operations that touch indexes are ordered steps, each one atomic script or command, in an
 * order that is safe at every step (see session-store.ts): a session is indexed before its
 * record is written (a live session is always findable for logout-all and kickout), and a
 * revocation writes its marker before it cleans the indexes (a half-done revocation has already
 * revoked). Never KEYS or SCAN.
 */
import { SESSION_ID_HEX } from './session-pack';

export { SESSION_ID_HEX };

/**
 * Buckets of the per-type online index, in both layouts: about 31,000 entries (6 MB) each at
 * 1,000,000 sessions (16 would be 12 MB each there).
 */
export const ALL_BUCKETS = 32;
/**
 * The tagged layout's bucket count in the releases before ALL_BUCKETS: an entry they wrote sits in
 * bucket `n mod 16` of its bucket `n` now (previousBucket), until the index sweeper moves it.
 */
export const PREVIOUS_TAGGED_BUCKETS = 16;

export type KeyLayoutKind = 'plain' | 'tagged';

const escapeTag = (s: string): string => (/[%{}]/.test(s) ? s.replace(/%/g, '%25').replace(/\{/g, '%7B').replace(/\}/g, '%7D') : s);

/** FNV-1a over the UTF-16 code units: a stable, cheap spread of token hashes over the buckets. */
export function bucketOf(hash: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < hash.length; i++) {
    h ^= hash.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % buckets;
}

export class RedisKeys {
  /** How many buckets the per-type online index has. */
  readonly buckets: number;
  private readonly tagged: boolean;

  constructor(
    private readonly prefix: string,
    readonly kind: KeyLayoutKind = 'plain',
  ) {
    this.tagged = kind === 'tagged';
    if (this.tagged && /[{}]/.test(prefix))
      throw new Error('the Redis key prefix must not contain { or } (it would pin every key to one cluster slot)');
    this.buckets = ALL_BUCKETS;
  }

  /** `<p><space>:<part>`, with the part as the hash tag in the tagged layout. */
  private key(space: string, part: string): string {
    return this.tagged ? `${this.prefix}${space}:{${escapeTag(part)}}` : `${this.prefix}${space}:${part}`;
  }

  /** A session's one key: record and last-active time, or tombstone; named by the first 32 hex digits of its token hash. */
  session(type: string, hash: string): string {
    return this.key('s', `${type}:${hash.slice(0, SESSION_ID_HEX)}`);
  }

  /** The previous layout's record or tombstone of a session, named by its whole token hash. */
  legacySession(type: string, hash: string): string {
    return this.key('s', `${type}:${hash}`);
  }

  /**
   * The session key that names the same session as a key of the previous layout's `s` (the local cache maps
   * the invalidations of those keys through it); null for any other key.
   */
  sessionKeyOfLegacy(key: string): string | null {
    const head = this.tagged ? `${this.prefix}s:{` : `${this.prefix}s:`;
    if (!key.startsWith(head) || (this.tagged && !key.endsWith('}'))) return null;
    const rest = key.slice(head.length, this.tagged ? -1 : undefined);
    const colon = rest.lastIndexOf(':');
    if (colon < 0 || rest.length - colon - 1 <= SESSION_ID_HEX) return null;
    return this.session(rest.slice(0, colon), rest.slice(colon + 1));
  }

  /** The previous layout's last-active time of a session (the slot of its `legacySession`). */
  lastActive(type: string, hash: string): string {
    return this.key('a', `${type}:${hash}`);
  }

  /** Per-user index. */
  user(type: string, userId: string): string {
    return this.key('u', `${type}:${userId}`);
  }

  /** The per-user index's metadata (same slot as `user`): index order, times, device type, ending. */
  userMeta(type: string, userId: string): string {
    return this.key('um', `${type}:${userId}`);
  }

  /** Token id -> token hash: the previous layout's, and a record's whose token id is not its key id. */
  tokenId(type: string, tokenId: string): string {
    return this.key('t', `${type}:${tokenId}`);
  }

  /** Bucket `n` of the per-type online index. */
  allBucket(type: string, n: number): string {
    return this.key('all', `${type}:${n}`);
  }

  /** The bucket of the per-type online index a session belongs in. */
  all(type: string, hash: string): string {
    return this.allBucket(type, bucketOf(hash, this.buckets));
  }

  /**
   * Where a release with PREVIOUS_TAGGED_BUCKETS put the session's online entry, when that is not its
   * bucket now (tagged layout only; the plain layout's buckets are new): its removal looks there too.
   */
  previousBucket(type: string, hash: string): string | null {
    if (!this.tagged) return null;
    const n = bucketOf(hash, this.buckets);
    return n < PREVIOUS_TAGGED_BUCKETS ? null : this.allBucket(type, n % PREVIOUS_TAGGED_BUCKETS);
  }

  /** The one online index of the releases before the buckets (plain layout; null in the tagged one, which never had it). */
  legacyAll(type: string): string | null {
    return this.tagged ? null : `${this.prefix}all:${type}`;
  }

  /** Every online-index key a session's entry may be in: its bucket, where a previous release put it, the legacy index. */
  onlineKeysOf(type: string, hash: string): string[] {
    const keys = [this.all(type, hash)];
    const previous = this.previousBucket(type, hash);
    if (previous !== null) keys.push(previous);
    const legacy = this.legacyAll(type);
    if (legacy !== null) keys.push(legacy);
    return keys;
  }

  /** Every key of the per-type online index: the buckets, then the legacy index where the layout had one. */
  allKeys(type: string): string[] {
    const keys = Array.from({ length: this.buckets }, (_, n) => this.allBucket(type, n));
    const legacy = this.legacyAll(type);
    return legacy === null ? keys : [...keys, legacy];
  }

  /** A key-value key: its subject (after the first ':') decides the slot. */
  keyValue(key: string): string {
    if (!this.tagged) return `${this.prefix}kv:${key}`;
    const colon = key.indexOf(':');
    return colon < 0 ? this.key('kv', key) : `${this.prefix}kv:${key.slice(0, colon)}:{${escapeTag(key.slice(colon + 1))}}`;
  }

  /** A captcha answer: the key-value key `captcha:<scope>:<uuid>`. */
  captcha(scope: string, uuid: string): string {
    return this.keyValue(`captcha:${scope}:${uuid}`);
  }

  list(key: string): string {
    return this.key('l', key);
  }

  rateLog(key: string): string {
    return this.key('rl', key);
  }

  /** The audit stream of a login type's log (`login` or `operation`). */
  auditLog(type: string, log: string): string {
    return this.key('ev', `${type}:${log}`);
  }

  /** A key of a webhook endpoint's outbox (`q`, `s`, `lease`, `batches`): one slot per endpoint. */
  webhook(endpoint: string, part: string): string {
    return `${this.key('wh', endpoint)}:${part}`;
  }

  /** The ids of the last batches appended to that stream (its slot), so a batch sent again is not appended twice. */
  auditBatches(type: string, log: string): string {
    return this.key('evb', `${type}:${log}`);
  }
}
