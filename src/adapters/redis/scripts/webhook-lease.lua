-- Takes or renews an endpoint's delivery lease for owner, or gives it up.
-- KEYS lease
-- ARGV owner, ttlMs ('0': release)
-- Returns 1 when owner holds the lease (or released it), 0 when another owner does.
local holder = redis.call('GET', KEYS[1])
if ARGV[2] == '0' then
  if holder == ARGV[1] then redis.call('DEL', KEYS[1]) end
  return 1
end
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
