-- renew: ARGV id, token, ttl (ms), mayIssueUntil (holder's ms).
-- Answers {'ok', now, expiresAt}, or {'lost'} (Redis lost its data), {'gone'} (no record),
-- {'taken', why}.
local rec = redis.call('HGET', KEYS[1], ARGV[1])
if not rec then
  if redis.call('EXISTS', KEYS[4]) == 0 then
    return {'lost'}
  end
  return {'gone'}
end
local f = split(rec)
if f[2] ~= ARGV[2] then
  if f[2] == '-' then
    return {'taken', 'released'}
  end
  return {'taken', 'expired and taken by another holder'}
end
-- still this token's, even if it expired meanwhile: nobody else took it, so extending it is safe
local ttl = tonumber(ARGV[3])
local promise = tonumber(ARGV[4])
local hw = num(f[4])
if not hw or promise > hw then
  hw = promise
end
local expires = now + ttl
redis.call('HSET', KEYS[1], ARGV[1], record(f[1], f[2], expires, hw, num(f[5])))
redis.call('ZADD', KEYS[2], str(expires), ARGV[1])
epoch()
touch(ttl)
return {'ok', str(now), str(expires)}
