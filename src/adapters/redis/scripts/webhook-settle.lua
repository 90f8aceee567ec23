-- Settles the head of an endpoint's queue if it is message id: ack (remove it and its state) or
-- defer (record its attempts and next try).
-- KEYS queue, state
-- ARGV id, 'ack' | 'defer', attempts, notBefore
local head = redis.call('LINDEX', KEYS[1], 0)
if not head or string.sub(head, 1, #ARGV[1] + 1) ~= ARGV[1] .. '|' then return 0 end
if ARGV[2] == 'ack' then
  redis.call('LPOP', KEYS[1])
  redis.call('DEL', KEYS[2])
else
  redis.call('HSET', KEYS[2], 'id', ARGV[1], 'attempts', ARGV[3], 'notBefore', ARGV[4])
end
return 1
