-- Replaces the record of an active session (one key) and resets its retention; its last-active
-- time (the value's head) stays. Returns the previous value (the caller moves index entries if the
-- user or token id changed), 0 when the key is missing (the caller tries the previous layout), or
-- nil if not active.
-- KEYS n
-- ARGV '|<hash>|<record>', ret ('' = none)
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
if not isOneKey(old) or active(old) == nil then return false end
setWithTtl(KEYS[1], string.sub(old, 1, 13) .. ARGV[1], ARGV[2])
return old
