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
-- The first `want` keys in order: a bounded sorted buffer for a shallow page (entries mostly come
-- in creation order, so most are refused by one comparison), a full sort for a deep one.
local want = offset + limit
local bounded = want <= 1000
local keys, total = {}, 0
local function keep(key)
  total = total + 1
  if not bounded then keys[#keys + 1] = key return end
  local n = #keys
  if n >= want and key >= keys[n] then return end
  local lo, hi = 1, n + 1
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if keys[mid] < key then lo = mid + 1 else hi = mid end
  end
  table.insert(keys, lo, key)
  if #keys > want then keys[#keys] = nil end
end
for i = 1, #members, 1000 do
  local last = math.min(i + 999, #members)
  local metas = redis.call('HMGET', KEYS[2], unpack(members, i, last))
  for j = 1, last - i + 1 do
    local h, m = members[i + j - 1], metas[j]
    local created, exp, ending, dev = '0', nil, '', default
    if m then
      local c, e, en, d = string.match(m, '^%d+|(%d*)|(%d*)|([^|]*)|(.*)$')
      if c then created, exp, ending, dev = c, tonumber(e), en, d end
    end
    if ending == '' and (exp == nil or exp > now) and (device == '' or dev == device) then
      if #created < 16 then created = string.rep('0', 16 - #created) .. created end
      keep(created .. h)
    end
  end
end
if not bounded then table.sort(keys) end
local out = {total}
for i = offset + 1, math.min(want, #keys) do out[#out + 1] = string.sub(keys[i], 17) end
return out
