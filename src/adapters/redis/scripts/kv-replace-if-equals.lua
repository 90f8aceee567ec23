-- Replaces value and TTL only while the key holds the expected value. Returns 1 when replaced, else 0.
-- KEYS k
-- ARGV expected, value, ttl
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
