-- Adds a session to its user's index (u: score = retention deadline, '+inf' = none; um: its
-- metadata 'seq|createdAt|expiresAt|ending|device') and decides, in this one step, what the login
-- does to the user's other sessions (its admission). Both keys live as long as their longest-lived
-- member. An entry without metadata (indexed by an older release, before device types) counts as
-- the oldest, never expired, of the default device type (its record has none either).
-- KEYS u, um
-- ARGV hash, score, ret ('' = none), now, kind ('add' | 'replace' | 'exclusive' | 'cap'),
--      createdAt, expiresAt ('' = none), device, range (device type of replace / exclusive; '' = all),
--      max (cap), state (the tombstone of a cap), the default device type
-- Returns {verdict, list, candidates}:
--   add       {'added', {}, c}
--   replace   {'added', others in range (to replace: current or not, the caller keeps expired ones), c}
--   exclusive {'added', {}, c}, or {'refused', {hash, createdAt, ...} of the current sessions in range, c}
--             (nothing was added: the caller checks them, drops the dead ones and asks again)
--   cap       {'added', {hash, state, ...} to end, c}: the oldest current sessions beyond max, now
--             marked ending (no later login counts them), and any entry still marked ending (a login
--             that marked it died before ending it: ending it again is harmless)
-- and candidates c: up to 20 entries past their deadline (the caller drops those whose session is gone).
local u, um, hash = KEYS[1], KEYS[2], ARGV[1]
local now, kind = tonumber(ARGV[4]), ARGV[5]
local range = ARGV[9]
local candidates = redis.call('ZRANGEBYSCORE', u, '-inf', '(' .. ARGV[4], 'LIMIT', 0, 20)

-- The user's other sessions with their metadata.
local function others()
  local members = redis.call('ZRANGE', u, 0, -1)
  local out = {}
  if #members == 0 then return out end
  local metas = {}
  for i = 1, #members, 1000 do
    local chunk = redis.call('HMGET', um, unpack(members, i, math.min(i + 999, #members)))
    for j, m in ipairs(chunk) do metas[i + j - 1] = m end
  end
  for i, h in ipairs(members) do
    if h ~= hash then
      local e = {hash = h, seq = 0, createdAt = 0, ending = '', device = ARGV[12]}
      local m = metas[i]
      if m then
        local seq, created, exp, ending, device = string.match(m, '^(%d+)|(%d*)|(%d*)|([^|]*)|(.*)$')
        if seq then
          e = {hash = h, seq = tonumber(seq), createdAt = tonumber(created) or 0, exp = tonumber(exp),
               ending = ending, device = device}
        end
      end
      out[#out + 1] = e
    end
  end
  return out
end
local function current(e) return e.ending == '' and (e.exp == nil or e.exp > now) end
local function inRange(e) return range == '' or e.device == range end

local function add()
  local beforeU, beforeM = redis.call('PTTL', u), redis.call('PTTL', um)
  redis.call('ZADD', u, ARGV[2], hash)
  local old = redis.call('HGET', um, hash)
  local seq, ending = nil, ''
  if old then seq, ending = string.match(old, '^(%d+)|[^|]*|[^|]*|([^|]*)|') end
  if not seq then seq = redis.call('HINCRBY', um, '#seq', 1) end
  redis.call('HSET', um, hash, seq .. '|' .. ARGV[6] .. '|' .. ARGV[7] .. '|' .. (ending or '') .. '|' .. ARGV[8])
  keepIndex(u, beforeU, ARGV[3])
  keepIndex(um, beforeM, ARGV[3])
end

if kind == 'exclusive' then
  local live = {}
  for _, e in ipairs(others()) do
    if current(e) and inRange(e) then live[#live + 1] = e.hash; live[#live + 1] = tostring(e.createdAt) end
  end
  if #live > 0 then return {'refused', live, candidates} end
  add()
  return {'added', {}, candidates}
end

if kind == 'replace' then
  local list = {}
  for _, e in ipairs(others()) do
    if inRange(e) then list[#list + 1] = e.hash end
  end
  add()
  return {'added', list, candidates}
end

if kind == 'cap' then
  local all = others()
  add()
  local live, list = {}, {}
  for _, e in ipairs(all) do
    if current(e) then live[#live + 1] = e
    elseif e.ending ~= '' then list[#list + 1] = e.hash; list[#list + 1] = e.ending end
  end
  table.sort(live, function(a, b)
    if a.seq ~= b.seq then return a.seq < b.seq end
    return a.hash < b.hash
  end)
  local max = tonumber(ARGV[10])
  for i = 1, #live + 1 - max do
    local e = live[i]
    local m = redis.call('HGET', um, e.hash)
    if m then
      local seq, created, exp, device = string.match(m, '^(%d+)|([^|]*)|([^|]*)|[^|]*|(.*)$')
      redis.call('HSET', um, e.hash, seq .. '|' .. created .. '|' .. exp .. '|' .. ARGV[11] .. '|' .. device)
    else
      redis.call('HSET', um, e.hash, '0|||' .. ARGV[11] .. '|')
    end
    list[#list + 1] = e.hash; list[#list + 1] = ARGV[11]
  end
  return {'added', list, candidates}
end

add()
return {'added', {}, candidates}
