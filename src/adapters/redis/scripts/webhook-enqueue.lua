-- Queues webhook messages for one endpoint, up to maxPending held; a batch queued again (same
-- marker) is taken once.
-- KEYS queue, batch marker
-- ARGV maxPending, then "<id>|<body>" per message
-- Returns how many messages the batch had taken (all of them for a batch seen before).
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', 86400000) then return #ARGV - 1 end
local room = tonumber(ARGV[1]) - redis.call('LLEN', KEYS[1])
local n = 0
for i = 2, #ARGV do
  if n >= room then break end
  redis.call('RPUSH', KEYS[1], ARGV[i])
  n = n + 1
end
return n
