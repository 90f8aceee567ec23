-- Compare-and-set of the record of an active session of the previous layout (SessionStore.patch): writes the new record only while the key
-- still holds exactly the record the caller read and patched, keeping its TTL (and the last-active key as it is).
-- Returns 1 when written, 0 when the record changed in between (the caller reads again), -1 when not active.
-- KEYS s
-- ARGV expected json, new json
local v = redis.call('GET', KEYS[1])
if active(v) == nil then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
