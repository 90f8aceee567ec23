-- session-touch.lua for several sessions at once (the reads of one tick; standalone and Sentinel, where
-- one script may read keys of any slot): a session without its key is read (and touched) in the previous
-- layout's keys, as session-touch-legacy.lua does.
-- KEYS n1, s1, a1, n2, s2, a2, ...
-- ARGV now1, idleLimit1, now2, idleLimit2, ...
-- Returns one entry per session, as those scripts return for one (false reads as nil), or an
-- error reply in that session's place where its own read failed (a key of the wrong type): one
-- session's failure fails its own read only, as it would alone.
local function touchEither(n, s, a, now, idle)
  local r = touchOneKey(n, now, idle)
  if r or n == s then return r end
  return touchSession(s, a, now, idle)
end
local out = {}
for i = 1, #KEYS, 3 do
  local j = (i + 2) / 3
  local ok, r = pcall(touchEither, KEYS[i], KEYS[i + 1], KEYS[i + 2], ARGV[2 * j - 1], ARGV[2 * j])
  if ok then
    out[j] = r
  elseif type(r) == 'table' and r.err then
    out[j] = r
  else
    out[j] = {err = tostring(r)}
  end
end
return out
