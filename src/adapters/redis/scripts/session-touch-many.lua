-- session-touch.lua for several sessions at once (the reads of one tick; standalone and Sentinel).
-- KEYS s1, a1, s2, a2, ...
-- ARGV now1, idleLimit1, now2, idleLimit2, ...
-- Returns one entry per session, as session-touch.lua returns for one (false reads as nil), or an
-- error reply in that session's place where its own read failed (a key of the wrong type): one
-- session's failure fails its own read only, as it would alone.
local out = {}
for i = 1, #KEYS, 2 do
  local ok, r = pcall(touchSession, KEYS[i], KEYS[i + 1], ARGV[i], ARGV[i + 1])
  if ok then
    out[(i + 1) / 2] = r
  elseif type(r) == 'table' and r.err then
    out[(i + 1) / 2] = r
  else
    out[(i + 1) / 2] = {err = tostring(r)}
  end
end
return out
