-- Which of the given session records may hold every needle (plain substrings: the online list's IP
-- and device-type filters), decided where the records are (standalone and Sentinel), so only the
-- candidates leave Redis. A missing key (a session of the previous layout, whose record is under
-- another key, or one gone) and a value that is not a string are candidates: the caller reads and
-- checks every candidate as it would without this script.
-- KEYS s1, s2, ...
-- ARGV needle...
-- Returns the 1-based positions of the candidates among KEYS.
local out = {}
for i, k in ipairs(KEYS) do
  local v = redis.pcall('GET', k)
  if type(v) == 'table' or not v then
    out[#out + 1] = i
  elseif v then
    local hit = true
    for _, n in ipairs(ARGV) do
      if not string.find(v, n, 1, true) then hit = false break end
    end
    if hit then out[#out + 1] = i end
  end
end
return out
