-- Appends an item, keeps the newest maxLength items and refreshes the list's TTL.
-- KEYS list
-- ARGV item, maxLength, ttl
-- Returns the new length.
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('LLEN', KEYS[1])
