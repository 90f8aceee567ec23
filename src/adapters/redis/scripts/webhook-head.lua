-- The head of an endpoint's queue with its attempts and next try (kept only for that head's id).
-- KEYS queue, state
-- Returns nil, or { "<id>|<body>", attempts, notBefore }.
local head = redis.call('LINDEX', KEYS[1], 0)
if not head then return nil end
local id = string.match(head, '^([^|]*)|')
local state = redis.call('HMGET', KEYS[2], 'id', 'attempts', 'notBefore')
if state[1] ~= id then return { head, '0', '0' } end
return { head, state[2] or '0', state[3] or '0' }
