-- Adds a session to its user's index (score = retention deadline, '+inf' = none) and keeps the
-- index key alive as long as its longest-lived member.
-- KEYS u
-- ARGV hash, score, ret ('' = none), now, replaceOthers ('1' / '0')
-- Returns {others, candidates}: the user's other sessions when replaceOthers (to be replaced),
-- and up to 20 entries past their deadline (the caller drops those whose session is gone).
local hash = ARGV[1]
local candidates = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[4], 'LIMIT', 0, 20)
local before = redis.call('PTTL', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[2], hash)
keepIndex(KEYS[1], before, ARGV[3])
local others = {}
if ARGV[5] == '1' then
  for _, h in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if h ~= hash then others[#others + 1] = h end
  end
end
return {others, candidates}
