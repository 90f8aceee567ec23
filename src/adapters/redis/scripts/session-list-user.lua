-- The user's current sessions; prunes index entries whose session is gone.
-- KEYS u
-- ARGV now, sPrefix, aPrefix
-- Returns {hash, json, lastActive or '', ...}.
local now = tonumber(ARGV[1])
local out = {}
for _, h in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local v = redis.call('GET', ARGV[2] .. h)
  local rec = active(v)
  if rec == nil then
    redis.call('ZREM', KEYS[1], h)
  elseif current(rec, now) then
    out[#out + 1] = h
    out[#out + 1] = v
    out[#out + 1] = redis.call('GET', ARGV[3] .. h) or ''
  end
end
return out
