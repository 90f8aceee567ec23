-- Writes a new session's record and last-active time, unless something already holds the key
-- (a concurrent login of the same user with is-concurrent=false replaced it before it was
-- written: see session-tombstone.lua). Returns 1 when written, else 0.
-- KEYS s, a
-- ARGV json, now, ret ('' = none)
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
setWithTtl(KEYS[1], ARGV[1], ARGV[3])
setWithTtl(KEYS[2], ARGV[2], ARGV[3])
return 1
