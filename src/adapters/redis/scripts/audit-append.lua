-- Appends a batch of security events to one stream, each under an id whose ms is its event's time
-- (never below the stream's newest id, so a late event stays in order), each with its chain hash
-- h = sha1(previous h .. "\n" .. json) (src/application/audit/hash-chain.ts), then trims what is
-- older than the cut-off (exact MINID: a search never sees an event past the retention).
-- A batch is appended once: the stream's last 100 batch ids (KEYS[2]) make a batch sent again (a
-- reply that timed out, a command the client resent after a reconnect) a no-op.
-- KEYS stream, its recent batch ids
-- ARGV minId (ms), batch id, then time, json for each event
-- Returns the number of events appended (0: the batch was already appended).
if redis.call('LPOS', KEYS[2], ARGV[2]) then return 0 end
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, 99)
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last = 0
local hash = ''
if #top > 0 then
  last = tonumber(string.match(top[1][1], '^(%d+)'))
  local fields = top[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'h' then hash = fields[i + 1] end
  end
end
local n = 0
for i = 3, #ARGV, 2 do
  local t = tonumber(ARGV[i])
  if t < last then t = last end
  hash = redis.sha1hex(hash .. '\n' .. ARGV[i + 1])
  redis.call('XADD', KEYS[1], string.format('%.0f', t) .. '-*', 'e', ARGV[i + 1], 'h', hash)
  last = t
  n = n + 1
end
redis.call('XTRIM', KEYS[1], 'MINID', ARGV[1])
return n
