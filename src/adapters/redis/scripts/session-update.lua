-- Replaces the record of an active session and re-indexes it. Returns 1, or 0 if not active.
-- KEYS s, a, u (of the new record), t (of the new record), all
-- ARGV json, ret ('' = none), hash, createdAt, uPrefix, tPrefix
-- The user-index score comes from Redis TIME (there is no `now`): it is a GC hint only.
local old = active(redis.call('GET', KEYS[1]))
if old == nil then return 0 end
local ret, hash = ARGV[2], ARGV[3]
-- Drop index entries of the old record if the user or token id changed.
local oldUser = userKey(ARGV[5], old)
if oldUser and oldUser ~= KEYS[3] then redis.call('ZREM', oldUser, hash) end
if type(old.tokenId) == 'string' and ARGV[6] .. old.tokenId ~= KEYS[4] then dropToken(ARGV[6], old, hash) end
setWithTtl(KEYS[1], ARGV[1], ret)
setWithTtl(KEYS[4], hash, ret)
local score = '+inf'
if ret == '' then
  redis.call('PERSIST', KEYS[2])
else
  redis.call('PEXPIRE', KEYS[2], ret)
  local t = redis.call('TIME')
  score = tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ret))
end
local before = redis.call('PTTL', KEYS[3])
redis.call('ZADD', KEYS[3], score, hash)
keepIndex(KEYS[3], before, ret)
redis.call('ZADD', KEYS[5], ARGV[4], hash)
return 1
