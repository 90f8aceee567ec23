-- Turns an active session into a tombstone that keeps the session's TTL (KEEPTTL) and drops its
-- last-active time. The caller then removes the index entries: the marker comes first, so a
-- revocation interrupted half way has already revoked.
-- KEYS s, a
-- ARGV state, now ('' = any active session; else only one not past expiresAt at now),
--      pending ('1': a missing session gets the tombstone, so a login still being written when a
--      newer one replaces it can never become live), ret (its PX; '' = none)
-- Returns {'changed', previous json}, {'pending'} (missing, and pending: the tombstone now holds the
-- key), {'dead'} (missing, tombstone or corrupt: the caller drops its index entries either way) or
-- {'kept'} (active but past expiresAt: it still reads as expired).
local v = redis.call('GET', KEYS[1])
if not v then
  if ARGV[3] == '1' then
    setWithTtl(KEYS[1], ARGV[1], ARGV[4])
    return {'pending'}
  end
  return {'dead'}
end
local rec = active(v)
if rec == nil then return {'dead'} end
if ARGV[2] ~= '' and not current(rec, tonumber(ARGV[2])) then return {'kept'} end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
redis.call('DEL', KEYS[2])
return {'changed', v}
