-- Removes sessions from their user's index: the ZSET entries and their metadata, together; the
-- metadata key (and its '#seq' counter) goes with the last entry.
-- KEYS u, um
-- ARGV hash...
redis.call('ZREM', KEYS[1], unpack(ARGV))
redis.call('HDEL', KEYS[2], unpack(ARGV))
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('DEL', KEYS[2]) end
return 1
