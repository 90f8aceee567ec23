-- Stores the value when the key is absent; otherwise leaves it.
-- Returns the held value, or false when this call stored `value`.
-- (SET NX GET would do on Redis >= 7 only; the script also runs on 6.x.)
-- KEYS k
-- ARGV value, ttl
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
