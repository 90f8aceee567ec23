-- Writes a new session's key (record and last-active time), unless something already holds it
-- (a concurrent login of the same user with is-concurrent=false replaced it before it was
-- written: see session-tombstone.lua). Returns 1 when written, else 0.
-- KEYS n
-- ARGV value, ret ('' = none)
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
setWithTtl(KEYS[1], ARGV[1], ARGV[2])
return 1
