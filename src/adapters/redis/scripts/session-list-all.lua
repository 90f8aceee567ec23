-- Current sessions of a login type, oldest first, at most `limit`; prunes dead entries it meets.
-- KEYS all
-- ARGV now, limit, sPrefix, aPrefix
-- Returns {hash, json, lastActive or '', ...}.
local now, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local out, found, pos = {}, 0, 0
while found < limit do
  local batch = redis.call('ZRANGE', KEYS[1], pos, pos + 99)
  if #batch == 0 then break end
  local dead = {}
  for _, h in ipairs(batch) do
    if found >= limit then break end
    local v = redis.call('GET', ARGV[3] .. h)
    local rec = active(v)
    if rec == nil then
      dead[#dead + 1] = h
    else
      pos = pos + 1
      if current(rec, now) then
        found = found + 1
        out[#out + 1] = h
        out[#out + 1] = v
        out[#out + 1] = redis.call('GET', ARGV[4] .. h) or ''
      end
    end
  end
  if #dead > 0 then redis.call('ZREM', KEYS[1], unpack(dead)) end
end
return out
