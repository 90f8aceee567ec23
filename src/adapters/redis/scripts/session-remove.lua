-- Removes a session (or tombstone) and its last-active time. Returns what was stored (the caller
-- cleans the indexes of an active record), or nil if there was nothing.
-- KEYS s, a
local v = redis.call('GET', KEYS[1])
if not v then return false end
redis.call('DEL', KEYS[1], KEYS[2])
return v
