-- Turns active sessions into tombstones that keep their TTL (KEEPTTL) and drops their
-- last-active time and index entries. Returns how many changed.
-- KEYS all
-- ARGV state, sPrefix, aPrefix, uPrefix, tPrefix, hash...
local n = 0
for i = 6, #ARGV do
  local h = ARGV[i]
  local sk = ARGV[2] .. h
  local rec = active(redis.call('GET', sk))
  if rec then
    redis.call('SET', sk, ARGV[1], 'KEEPTTL')
    redis.call('DEL', ARGV[3] .. h)
    unindex(ARGV[4], ARGV[5], rec, h)
    redis.call('ZREM', KEYS[1], h)
    n = n + 1
  end
end
return n
