-- A page of one user's sessions, oldest first (createdAt, then hash), decided from the user's
-- index alone (u and its metadata um, one slot): the entries whose retention deadline (u score) is
-- not past, not being ended by a login, not past expiresAt, of the device type when one is asked.
-- Only the page's hashes leave Redis; the caller reads just their records. An entry without
-- metadata (indexed before device types) counts as the oldest, never expired, of the default type.
-- KEYS u, um
-- ARGV now, offset, limit, device ('' = any), the default device type
-- Returns {total, hash...} (the hashes of the page, in order).
local now, offset, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local device, default = ARGV[4], ARGV[5]
local members = redis.call('ZRANGE', KEYS[1], ARGV[1], '+inf', 'BYSCORE')
local keys = {}
for i = 1, #members, 1000 do
  local last = math.min(i + 999, #members)
  local metas = redis.call('HMGET', KEYS[2], unpack(members, i, last))
  for j = 1, last - i + 1 do
    local h, m = members[i + j - 1], metas[j]
    local created, exp, ending, dev = 0, nil, '', default
    if m then
      local c, e, en, d = string.match(m, '^%d+|(%d*)|(%d*)|([^|]*)|(.*)$')
      if c then created, exp, ending, dev = tonumber(c) or 0, tonumber(e), en, d end
    end
    if ending == '' and (exp == nil or exp > now) and (device == '' or dev == device) then
      keys[#keys + 1] = string.format('%016d', created) .. h
    end
  end
end
table.sort(keys)
local out = {#keys}
for i = offset + 1, math.min(offset + limit, #keys) do out[#out + 1] = string.sub(keys[i], 17) end
return out
