-- Compare-and-set of an active session's record (SessionStore.patch, one key): writes the new record
-- only while the key still holds exactly the record the caller read and patched (its last-active head
-- may have moved meanwhile: it stays as it is now), keeping its TTL.
-- Returns 1 when written, 0 when the record changed in between (the caller reads again), -1 when not
-- active, -2 when the key is missing (the caller tries the previous layout).
-- KEYS n
-- ARGV expected value after its 13-digit head, new value after it
local v = redis.call('GET', KEYS[1])
if not v then return -2 end
if not isOneKey(v) or active(v) == nil then return -1 end
if string.sub(v, 14) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], string.sub(v, 1, 13) .. ARGV[2], 'KEEPTTL')
return 1
