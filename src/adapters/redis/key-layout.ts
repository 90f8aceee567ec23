/**
 * The Redis key layout of every store class, written down once. All keys live under one key
 * prefix (<p>); the stores of one deployment share it and one client. Changing a key name
 * orphans data already in Redis (live sessions would be lost at the deploy), so the layout is
 * fixed and test/contract/redis-store.test.ts asserts it.
 *
 * RedisSessionStore owns:
 *   <p>s:<type>:<hash>      session record JSON, or a tombstone marker 'kicked-out' / 'replaced'
 *                           (PX = retention; a tombstone keeps the remaining TTL via KEEPTTL)
 *   <p>a:<type>:<hash>      last-active time (ms, string), same TTL as the session
 *   <p>u:<type>:<userId>    ZSET of the user's active hashes, score = retention deadline (ms, +inf = none);
 *                           key TTL = longest member retention
 *   <p>t:<type>:<tokenId>   tokenHash of the active session with that short token id, same TTL
 *   <p>all:<type>           ZSET of active hashes of a login type, score = record.createdAt (listAll order)
 * RedisKeyValueStore owns:
 *   <p>kv:<key>             KeyValueStore values
 * RedisCaptchaStore owns, inside the key-value space (the key-value key captcha:<scope>:<uuid>):
 *   <p>kv:captcha:<scope>:<uuid>   captcha answer JSON {"answer", "expiresAt"} (also read: {"a", "exp"}), PX = store TTL
 * RedisListStore owns:
 *   <p>l:<key>              ListStore lists (LIST, newest at the tail, PX refreshed on append)
 * RedisRateLimitStore owns:
 *   <p>rl:<key>             ZSET sliding log of accepted hits (score = hit time, unique member)
 * RedisStoreHealth owns no keys: it pings and closes the shared client.
 *
 * The Lua scripts build some key names from these prefixes (the `type, ''` forms below), so the
 * stores target a standalone Redis (or a single cluster slot), not a sharded cluster. Never KEYS.
 */
export class RedisKeys {
  constructor(private readonly prefix: string) {}

  /** Session record or tombstone. With hash '' the prefix the scripts append hashes to. */
  session(type: string, hash: string): string {
    return `${this.prefix}s:${type}:${hash}`;
  }

  /** Last-active time of a session. With hash '' the prefix the scripts append hashes to. */
  lastActive(type: string, hash: string): string {
    return `${this.prefix}a:${type}:${hash}`;
  }

  /** Per-user index. With userId '' the prefix the scripts append user ids to. */
  user(type: string, userId: string): string {
    return `${this.prefix}u:${type}:${userId}`;
  }

  /** Short token id -> token hash. With tokenId '' the prefix the scripts append token ids to. */
  tokenId(type: string, tokenId: string): string {
    return `${this.prefix}t:${type}:${tokenId}`;
  }

  /** Per-type index. */
  all(type: string): string {
    return `${this.prefix}all:${type}`;
  }

  keyValue(key: string): string {
    return `${this.prefix}kv:${key}`;
  }

  /** A captcha answer: the key-value key `captcha:<scope>:<uuid>`. */
  captcha(scope: string, uuid: string): string {
    return this.keyValue(`captcha:${scope}:${uuid}`);
  }

  list(key: string): string {
    return `${this.prefix}l:${key}`;
  }

  rateLog(key: string): string {
    return `${this.prefix}rl:${key}`;
  }
}
