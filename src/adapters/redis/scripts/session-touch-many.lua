-- session-touch.lua for several sessions at once (the reads of one tick; standalone and Sentinel).
-- KEYS n1, n2, ...
-- ARGV now1, idleLimit1, now2, idleLimit2, ...
-- Returns one entry per session, as session-touch.lua returns for one (false reads as nil), or an
-- error reply in that session's place where its own read failed (a key of the wrong type): one
-- session's failure fails its own read only, as it would alone.
local out = {}
for i = 1, #KEYS do
  local ok, r = pcall(touchOneKey, KEYS[i], ARGV[2 * i - 1], ARGV[2 * i])
  if ok then
    out[i] = r
  elseif type(r) == 'table' and r.err then
    out[i] = r
  else
    out[i] = {err = tostring(r)}
  end
end
return out
