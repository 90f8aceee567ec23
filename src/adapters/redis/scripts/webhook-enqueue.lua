-- Queues webhook messages for one endpoint, up to maxPending held; a batch queued again (its id
-- among the endpoint's last 100 batch ids) is taken once.
-- KEYS queue, recent batch ids
-- ARGV maxPending, batch id, then "<id>|<body>" per message
-- Returns how many messages the batch had taken (all of them for a batch seen before).
if redis.call('LPOS', KEYS[2], ARGV[2]) then return #ARGV - 2 end
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, 99)
local room = tonumber(ARGV[1]) - redis.call('LLEN', KEYS[1])
local n = 0
for i = 3, #ARGV do
  if n >= room then break end
  redis.call('RPUSH', KEYS[1], ARGV[i])
  n = n + 1
end
return n
