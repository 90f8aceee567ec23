-- Removes a session (or tombstone): its key, and the previous layout's last-active time. Returns what
-- was stored (the caller cleans the indexes of an active record), or nil if there was nothing.
-- KEYS the session's key (n, or the previous layout's s), its last-active key (a; n again for one key)
local v = redis.call('GET', KEYS[1])
if not v then return false end
redis.call('DEL', KEYS[1], KEYS[2])
return v
