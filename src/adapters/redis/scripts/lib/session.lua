-- Helpers shared by the session scripts; prepended to each of them (see lua-scripts.ts).

-- A kicked-out / replaced / logged-out (over the cap) marker left where a session record was.
local function isTombstone(v)
  return v == 'kicked-out' or v == 'replaced' or v == 'logged-out'
end
-- The decoded record of an active session, or nil for a missing key, a tombstone or corrupt data.
local function active(v)
  if not v or isTombstone(v) then return nil end
  local ok, rec = pcall(cjson.decode, v)
  if ok and type(rec) == 'table' then return rec end
  return nil
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
-- Reads a session and moves its last-active time to now, unless it is already frozen (see
-- session-touch.lua). Returns false, {tombstone or unreadable value} or {json, lastActiveBeforeTouch}.
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
