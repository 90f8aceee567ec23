-- Helpers shared by the session scripts; prepended to each of them (see lua-scripts.ts).

-- A kicked-out / replaced marker left where a session record was.
local function isTombstone(v)
  return v == 'kicked-out' or v == 'replaced'
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
