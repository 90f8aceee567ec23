-- Reads a session of the previous layout and moves its last-active time to now, unless it is already frozen.
-- KEYS s, a
-- ARGV now, idleLimit
-- Returns nil, {tombstone or unreadable value} or {json, lastActiveBeforeTouch}.
return touchSession(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
