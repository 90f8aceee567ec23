-- Removes a session (or tombstone) and its index entries. Returns 1, or 0 if there was none.
-- KEYS s, a, all
-- ARGV hash, uPrefix, tPrefix
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local rec = active(v)
if rec then unindex(ARGV[2], ARGV[3], rec, ARGV[1]) end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[1], KEYS[2])
return 1
