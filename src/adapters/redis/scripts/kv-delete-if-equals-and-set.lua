-- While the first key holds the expected value: delete it and set the second key, in one step
-- (a consumed refresh token and its "used" marker). Returns 1 when done, else 0.
-- KEYS k, next
-- ARGV expected, nextValue, nextTtl
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
