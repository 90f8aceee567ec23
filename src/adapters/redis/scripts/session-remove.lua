-- Removes a session (or tombstone): its key, and the previous layout's last-active time. Returns what
-- was stored (the caller cleans the indexes of an active record), or nil if there was nothing.
-- KEYS the session's key (n, or the previous layout's s), its last-active key (a; n again for one key)
-- ARGV the token hash (optional): a live value of one key holding another hash (same key id) is not removed
local v = redis.call('GET', KEYS[1])
if not v then return false end
if ARGV[1] and ARGV[1] ~= '' and isOneKey(v) and string.sub(v, 15, 14 + #ARGV[1] + 1) ~= ARGV[1] .. '|' then return false end
redis.call('DEL', KEYS[1], KEYS[2])
return v
