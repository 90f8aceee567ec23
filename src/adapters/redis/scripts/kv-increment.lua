-- Increments a counter; the TTL is set on creation only (or if the key somehow has none).
-- KEYS k
-- ARGV ttl
-- Returns {count, pttl}.
local c = redis.call('INCR', KEYS[1])
local t = redis.call('PTTL', KEYS[1])
if c == 1 or t == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  t = tonumber(ARGV[1])
end
return {c, t}
