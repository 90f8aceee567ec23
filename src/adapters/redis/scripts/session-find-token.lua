-- The token hash of the active session with this short token id, or nil.
-- KEYS t
-- ARGV sPrefix
local h = redis.call('GET', KEYS[1])
if not h then return false end
if active(redis.call('GET', ARGV[1] .. h)) then return h end
return false
