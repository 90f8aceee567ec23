-- Stores a new session and indexes it; with replaceOthers, marks the user's other current
-- sessions 'replaced'. Returns how many were replaced.
-- KEYS s, a, u, t, all
-- ARGV json, now, ret ('' = none), replaceOthers, hash, uScore, createdAt, sPrefix, aPrefix, tPrefix
local now, ret, hash = tonumber(ARGV[2]), ARGV[3], ARGV[5]
local replaced = 0
-- GC: user-index entries past their deadline (the score is a hint; the session key decides).
for _, h in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[2], 'LIMIT', 0, 20)) do
  if not active(redis.call('GET', ARGV[8] .. h)) then redis.call('ZREM', KEYS[3], h); redis.call('ZREM', KEYS[5], h) end
end
if ARGV[4] == '1' then
  for _, h in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    if h ~= hash then
      local sk = ARGV[8] .. h
      local rec = active(redis.call('GET', sk))
      if rec == nil then
        redis.call('ZREM', KEYS[3], h); redis.call('ZREM', KEYS[5], h)
      elseif current(rec, now) then
        -- Sessions past expiresAt are left alone so they still read as "expired".
        redis.call('SET', sk, 'replaced', 'KEEPTTL')
        redis.call('DEL', ARGV[9] .. h)
        redis.call('ZREM', KEYS[3], h); redis.call('ZREM', KEYS[5], h)
        dropToken(ARGV[10], rec, h)
        replaced = replaced + 1
      end
    end
  end
end
setWithTtl(KEYS[1], ARGV[1], ret)
setWithTtl(KEYS[2], ARGV[2], ret)
setWithTtl(KEYS[4], hash, ret)
local before = redis.call('PTTL', KEYS[3])
redis.call('ZADD', KEYS[3], ARGV[6], hash)
keepIndex(KEYS[3], before, ret)
redis.call('ZADD', KEYS[5], ARGV[7], hash)
-- GC: a small random sample of the per-type index, so it stays bounded without listAll calls.
-- Only missing sessions and tombstones are dropped here; listAll prunes corrupt ones.
for _, h in ipairs(redis.call('ZRANDMEMBER', KEYS[5], 3)) do
  if h ~= hash then
    local v = redis.call('GET', ARGV[8] .. h)
    if not v or isTombstone(v) then redis.call('ZREM', KEYS[5], h) end
  end
end
return replaced
