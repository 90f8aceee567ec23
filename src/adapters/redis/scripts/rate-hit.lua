-- Sliding-window log: records the hit if fewer than `limit` hits lie in the window.
-- KEYS log
-- ARGV now, window, limit, member (unique per hit), cutoff (now - window)
-- Returns {allowed, remaining, retryAfterMs, resetMs}.
local now, win, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[5])
local n = redis.call('ZCARD', KEYS[1])
local function scoreAt(i) return tonumber(redis.call('ZRANGE', KEYS[1], i, i, 'WITHSCORES')[2]) end
if n < limit then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, limit - n - 1, 0, scoreAt(-1) + win - now}
end
if n == 0 then return {0, 0, win, 0} end
local retry = win
if limit > 0 then retry = scoreAt(n - limit) + win - now end
return {0, 0, retry, scoreAt(-1) + win - now}
