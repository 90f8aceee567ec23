-- Helpers shared by the session scripts; prepended to each of them (see lua-scripts.ts).
-- Two layouts (session-codec.ts): one key per session, '<lastActive: 13 digits>|<token hash>|<record>'
-- (the record packed as a JSON array, or a JSON object) or a one-letter tombstone; and the previous
-- release's record JSON (key s) beside its last-active time (key a), a tombstone as its state's name.

-- A kicked-out / replaced / logged-out (over the cap) marker left where a session record was.
local function isTombstone(v)
  return v == 'k' or v == 'r' or v == 'l' or v == 'kicked-out' or v == 'replaced' or v == 'logged-out'
end
-- Whether v is an active value of one key per session (13 digits, then '|').
local function isOneKey(v)
  return string.byte(v, 14) == 124 and string.find(v, '^%d') ~= nil
end
-- The decoded record of an active session (either layout; of a packed one only createdAt and
-- expiresAt), or nil for a missing key, a tombstone or corrupt data.
local function active(v)
  if not v or isTombstone(v) then return nil end
  local body = v
  if isOneKey(v) then
    local bar = string.find(v, '|', 15, true)
    if not bar then return nil end
    body = string.sub(v, bar + 1)
  end
  local ok, rec = pcall(cjson.decode, body)
  if not ok then
    -- cjson refuses a lone UTF-16 surrogate escape ('\ud800'), which JSON.stringify writes for a
    -- user's string (a nickname) and JavaScript reads back: the session would be active to every
    -- reader yet 'dead' to the kickout. Only createdAt and expiresAt are needed here: every
    -- surrogate escape (an odd run of backslashes before 'u', so not an escaped backslash) becomes '?'.
    local plain = string.gsub(body, '(\\+)u[dD][89a-fA-F]%x%x', function(bs)
      if #bs % 2 == 0 then return nil end
      return string.sub(bs, 2) .. '?'
    end)
    ok, rec = pcall(cjson.decode, plain)
  end
  if not ok or type(rec) ~= 'table' then return nil end
  if rec[1] ~= nil then
    if rec[1] ~= 1 then return nil end
    return {createdAt = rec[4], expiresAt = rec[5]}
  end
  return rec
end
-- Not past expiresAt (a record without expiresAt never expires).
local function current(rec, now)
  return type(rec.expiresAt) ~= 'number' or rec.expiresAt > now
end
-- An index key lives as long as its longest-lived member: no TTL for a member without
-- retention (ret ''), else extended when the new member outlives the current TTL.
local function keepIndex(key, before, ret)
  if ret == '' then redis.call('PERSIST', key)
  elseif before == -2 or (before >= 0 and before < tonumber(ret)) then redis.call('PEXPIRE', key, ret) end
end
-- SET with PX = retention, or without TTL when retention is '' (none).
local function setWithTtl(key, value, ret)
  if ret == '' then redis.call('SET', key, value) else redis.call('SET', key, value, 'PX', ret) end
end
-- The shorter of two TTLs in ms (a negative one or '' is none); -1 when neither is set.
local function shorter(a, b)
  a, b = tonumber(a) or -1, tonumber(b) or -1
  if a < 0 then return b end
  if b < 0 or a < b then return a end
  return b
end
-- Writes a tombstone over a key: it keeps the key's TTL, cut to the tombstone retention tombRet.
local function setTombstone(key, code, tombRet)
  local ttl = shorter(redis.call('PTTL', key), tombRet)
  if ttl < 0 then redis.call('SET', key, code) else redis.call('SET', key, code, 'PX', math.max(1, ttl)) end
end
-- Reads a session of one key and moves its last-active time to now (SETRANGE over its head: the
-- TTL stays), unless it is already frozen. Returns false or {value as it was before the touch}.
local function touchOneKey(key, nowArg, idleArg)
  local v = redis.call('GET', key)
  if not v then return false end
  if not isOneKey(v) then return {v} end
  local last, now, idle = tonumber(string.sub(v, 1, 13)), tonumber(nowArg), tonumber(idleArg)
  if last and now > last and now - last <= idle then redis.call('SETRANGE', key, 0, nowArg) end
  return {v}
end
-- Reads a session of the previous layout and moves its last-active time to now, unless it is already
-- frozen. Returns false, {tombstone or unreadable value} or {json, lastActiveBeforeTouch}.
local function touchSession(sKey, aKey, nowArg, idleArg)
  local v = redis.call('GET', sKey)
  if not v then return false end
  if isTombstone(v) then return {v} end
  local raw = redis.call('GET', aKey)
  local last = tonumber(raw)
  if last == nil then
    local rec = active(v)
    if rec == nil or type(rec.createdAt) ~= 'number' then return {v} end
    last = rec.createdAt
    raw = tostring(last)
  end
  local now, idle = tonumber(nowArg), tonumber(idleArg)
  -- Touch only when not already frozen (idle longer than the limit).
  if now > last and now - last <= idle then
    local pttl = redis.call('PTTL', sKey)
    if pttl > 0 then redis.call('SET', aKey, nowArg, 'PX', pttl) else redis.call('SET', aKey, nowArg) end
  end
  return {v, raw}
end
