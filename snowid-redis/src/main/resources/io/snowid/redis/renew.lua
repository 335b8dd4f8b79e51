-- renew: ARGV id, token, ttl (ms), mayIssueUntil (holder's ms), confirmedExpiresAt (the expiry of
-- the holder's last confirmed grant or renewal, Redis's ms), slack (ms), confirmedAt (when that
-- grant or renewal was written, Redis's ms), defaultMaxSkew (ms: where the state records none).
-- Answers {'ok', now, expiresAt}, or {'lost', why} (no state for the namespace), {'gone', why} (no
-- record), {'taken', why}, {'rolledback', expiresAt, lostUntil} (the record is older than the holder's last
-- confirmed renewal: Redis went back to an older state).
-- Nobody may take or release a lease before its expiry: a renewal that finds its unexpired grant
-- gone, released or another holder's proves that Redis lost or rolled back writes. Holders of any
-- namespace that it forgot may issue until lostAt + their limits: the acquisitions wait for that.
local confirmed = tonumber(ARGV[5])
local function lostIfUnexpired()
  if now < confirmed then
    redis.call('HSET', KEYS[5], 'lostAt', str(now))
    redis.call('PEXPIRE', KEYS[5], WRITTEN_LIFE)
    return ' before its expiry: Redis lost or rolled back its writes'
  end
  return ''
end
local rec = redis.call('HGET', KEYS[1], ARGV[1])
local hasState = redis.call('EXISTS', KEYS[4]) == 1
if not rec or not hasState then
  local why = lostIfUnexpired()
  if not hasState then
    return {'lost', why}
  end
  return {'gone', why}
end
local f = split(rec)
if f[2] ~= ARGV[2] then
  local why = lostIfUnexpired()
  if f[2] == '-' then
    return {'taken', 'released' .. why}
  end
  if why ~= '' then
    return {'taken', 'taken by another holder' .. why}
  end
  return {'taken', 'expired and taken by another holder'}
end
local promise = tonumber(ARGV[4])
local hw = num(f[4])
if not hw or promise > hw then
  hw = promise
end
if num(f[3]) < tonumber(ARGV[5]) then
  -- Holders that Redis forgot, of this namespace or another, may issue until lostUntil (lostAt
  -- plus the limits, for another): newcomers start after it. The record is released (keeping this
  -- holder's promise), so it can lease it again.
  -- A loss found more than maxSkew after this holder's last confirmed write (Redis's clock, which
  -- a failover changes) was found in the state that lacks that write: its wait covers every holder
  -- Redis forgot, and it is taken on instead of found anew (docs/design.md, "The redis:// backend").
  local st = redis.call('HMGET', KEYS[4], 'maxTtl', 'maxSkew', 'lostUntil')
  local since = now
  local lostAt = num(redis.call('HGET', KEYS[5], 'lostAt'))
  if lostAt and lostAt > tonumber(ARGV[7]) + (num(st[2]) or tonumber(ARGV[8])) then
    since = lostAt
  end
  local lostUntil = since + (num(st[1]) or 0) + (num(st[2]) or 0) + tonumber(ARGV[6])
  if num(st[3]) and num(st[3]) > lostUntil then
    lostUntil = num(st[3])
  end
  redis.call('HSET', KEYS[4], 'lostUntil', str(lostUntil))
  if since == now then
    redis.call('HSET', KEYS[5], 'lostAt', str(now))
  end
  redis.call('HSET', KEYS[1], ARGV[1], record(f[1], '-', nil, hw, nil))
  redis.call('ZREM', KEYS[2], ARGV[1])
  wrote()
  touch(math.max(tonumber(ARGV[3]), lostUntil - now))
  return {'rolledback', f[3], str(lostUntil)}
end
-- still this token's, even if it expired meanwhile: nobody else took it, so extending it is safe
local ttl = tonumber(ARGV[3])
local expires = now + ttl
redis.call('HSET', KEYS[1], ARGV[1], record(f[1], f[2], expires, hw, num(f[5])))
redis.call('ZADD', KEYS[2], str(expires), ARGV[1])
wrote()
touch(ttl)
return {'ok', str(now), str(expires)}
