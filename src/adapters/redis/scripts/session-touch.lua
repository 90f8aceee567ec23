-- Reads a session and moves its last-active time to now, unless it is already frozen.
-- KEYS s, a
-- ARGV now, idleLimit
-- Returns nil, {tombstone or unreadable value} or {json, lastActiveBeforeTouch}.
local v = redis.call('GET', KEYS[1])
if not v then return false end
if isTombstone(v) then return {v} end
local raw = redis.call('GET', KEYS[2])
local last = tonumber(raw)
if last == nil then
  local rec = active(v)
  if rec == nil or type(rec.createdAt) ~= 'number' then return {v} end
  last = rec.createdAt
  raw = tostring(last)
end
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
-- Touch only when not already frozen (idle longer than the limit).
if now > last and now - last <= idle then
  local pttl = redis.call('PTTL', KEYS[1])
  if pttl > 0 then redis.call('SET', KEYS[2], ARGV[1], 'PX', pttl) else redis.call('SET', KEYS[2], ARGV[1]) end
end
return {v, raw}
