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
-- keys: 'createdAt (16 digits)' .. hash; in the bounded buffer also the createdAt as a number, so
-- that most entries are refused by comparing numbers before any string is built.
local keys, created, total = {}, {}, 0
local function keep(c, h)
  total = total + 1
  local n = #keys
  if bounded and n >= want and (n == 0 or c > created[n]) then return end
  local key = string.format('%016d', c) .. h
  if not bounded then keys[n + 1] = key return end
  if n >= want and key >= keys[n] then return end
  local lo, hi = 1, n + 1
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if keys[mid] < key then lo = mid + 1 else hi = mid end
  end
  table.insert(keys, lo, key)
  table.insert(created, lo, c)
  if #keys > want then keys[#keys] = nil created[#created] = nil end
end
local find, sub = string.find, string.sub
for i = 1, #members, 1000 do
  local last = math.min(i + 999, #members)
  local metas = redis.call('HMGET', KEYS[2], unpack(members, i, last))
  for j = 1, last - i + 1 do
    local h, m = members[i + j - 1], metas[j]
    -- 'seq|createdAt|expiresAt|ending|device', read by the positions of its separators.
    local p1 = m and find(m, '|', 1, true)
    local p2 = p1 and find(m, '|', p1 + 1, true)
    local p3 = p2 and find(m, '|', p2 + 1, true)
    local p4 = p3 and find(m, '|', p3 + 1, true)
    if p4 then
      local exp = tonumber(sub(m, p2 + 1, p3 - 1))
      if p4 == p3 + 1 and (exp == nil or exp > now) and (device == '' or sub(m, p4 + 1) == device) then
        keep(tonumber(sub(m, p1 + 1, p2 - 1)) or 0, h)
      end
    elseif device == '' or device == default then
      keep(0, h)
    end
  end
end
if not bounded then table.sort(keys) end
local out = {total}
for i = offset + 1, math.min(want, #keys) do out[#out + 1] = sub(keys[i], 17) end
return out
