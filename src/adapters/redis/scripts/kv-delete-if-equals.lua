-- Deletes the key only while it holds the expected value. Returns 1 when deleted, else 0.
-- KEYS k
-- ARGV expected
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
