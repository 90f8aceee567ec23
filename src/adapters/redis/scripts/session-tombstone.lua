-- Turns an active session into a one-letter tombstone that keeps the session's TTL cut to the
-- tombstone retention (session.tombstone-retention) and drops the previous layout's last-active time.
-- The caller then removes the index entries: the marker comes first, so a revocation interrupted half
-- way has already revoked.
-- KEYS the session's key (n, or the previous layout's s), its last-active key (a; n again for one key)
-- ARGV code (k, r, l), now ('' = any active session; else only one not past expiresAt at now),
--      pending ('1': a missing session gets the tombstone, so a login still being written when a
--      newer one replaces it can never become live), ret (the pending tombstone's PX, not cut: the
--      retention its record would have had, however late its write comes; '' = none),
--      tombRet (the tombstone retention in ms; '' = the session's TTL)
-- Returns {'changed', previous value}, {'pending'} (missing, and pending: the tombstone now holds the
-- key), {'missing'} (the caller tries the previous layout), {'dead'} (tombstone or corrupt: the caller
-- drops its index entries either way) or {'kept'} (active but past expiresAt: it still reads as expired).
local v = redis.call('GET', KEYS[1])
if not v then
  if ARGV[3] == '1' then
    setWithTtl(KEYS[1], ARGV[1], ARGV[4])
    return {'pending'}
  end
  return {'missing'}
end
local rec = active(v)
if rec == nil then return {'dead'} end
if ARGV[2] ~= '' and not current(rec, tonumber(ARGV[2])) then return {'kept'} end
setTombstone(KEYS[1], ARGV[1], ARGV[5])
if KEYS[2] ~= KEYS[1] then redis.call('DEL', KEYS[2]) end
return {'changed', v}
