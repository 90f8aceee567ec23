-- Replaces the record of an active session of the previous layout (kept in it until it ends) and resets its retention. Returns the previous
-- record (the caller moves index entries if the user or token id changed), or nil if not active.
-- KEYS s, a
-- ARGV json, ret ('' = none)
local old = redis.call('GET', KEYS[1])
if active(old) == nil then return false end
setWithTtl(KEYS[1], ARGV[1], ARGV[2])
if ARGV[2] == '' then redis.call('PERSIST', KEYS[2]) else redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return old
