-- Reads a session (one key) and moves its last-active time to now, unless it is already frozen.
-- KEYS n
-- ARGV now (13 digits), idleLimit
-- Returns nil or {value before the touch}.
return touchOneKey(KEYS[1], ARGV[1], ARGV[2])
