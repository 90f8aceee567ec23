-- Writes every key with its TTL in one atomic step (a refresh token and its family records).
-- Every argument is checked before the first write, so a bad one writes nothing.
-- KEYS k1 .. kn
-- ARGV value1, ttl1, .. valuen, ttln   (ttl in ms, >= 1)
-- Returns the number of keys written.
if #ARGV ~= 2 * #KEYS then return redis.error_reply('ERR setMany: expected a value and a ttl per key') end
for i = 1, #KEYS do
  local ttl = tonumber(ARGV[2 * i])
  if ttl == nil or ttl < 1 or ttl ~= math.floor(ttl) then return redis.error_reply('ERR setMany: bad ttl for key ' .. i) end
end
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], ARGV[2 * i - 1], 'PX', ARGV[2 * i])
end
return #KEYS
