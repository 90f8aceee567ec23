-- session-touch.lua for several sessions at once (the reads of one tick; standalone and Sentinel).
-- KEYS s1, a1, s2, a2, ...
-- ARGV now1, idleLimit1, now2, idleLimit2, ...
-- Returns one entry per session, as session-touch.lua returns for one (false reads as nil).
local out = {}
for i = 1, #KEYS, 2 do
  out[(i + 1) / 2] = touchSession(KEYS[i], KEYS[i + 1], ARGV[i], ARGV[i + 1])
end
return out
