-- acquire: ARGV size, instance, token, ttl (ms), mayIssueUntil (holder's ms), slack (ms).
-- Answers {'ok', id, now, expiresAt, base, fresh} or {'full', held}.
local size = tonumber(ARGV[1])
local instance = ARGV[2]
local token = ARGV[3]
local ttl = tonumber(ARGV[4])
local promise = tonumber(ARGV[5])
local slack = tonumber(ARGV[6])
local start, fresh = epoch()

-- expired leases are free; the rest are taken
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', str(now))
local taken, count = {}, 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  taken[id] = true
  count = count + 1
end

-- the instance's last id if free, else the lowest free id: at most count + 1 steps
local chosen = redis.call('HGET', KEYS[3], instance)
if chosen and (taken[chosen] or tonumber(chosen) >= size) then
  chosen = nil
end
if not chosen then
  for i = 0, size - 1 do
    local id = str(i)
    if not taken[id] then
      chosen = id
      break
    end
  end
end
if not chosen then
  return {'full', str(count)}
end

-- base: what earlier holders may have issued. An id without a record was never used since the
-- epoch, or its record expired when no mark in it mattered any more, or Redis lost it with
-- everything else: then a holder from before the loss may issue until one lease time (and its
-- clock skew) after the epoch began.
local rec = redis.call('HGET', KEYS[1], chosen)
local base, previous
if rec then
  local f = split(rec)
  previous = f[1]
  base = num(f[4])
else
  base = start + ttl + slack
end
local hw = promise
if base and base > hw then
  hw = base
end
local expires = now + ttl
redis.call('HSET', KEYS[1], chosen, record(instance, token, expires, hw, base))
redis.call('ZADD', KEYS[2], str(expires), chosen)
if previous and previous ~= instance and redis.call('HGET', KEYS[3], previous) == chosen then
  redis.call('HDEL', KEYS[3], previous)
end
redis.call('HSET', KEYS[3], instance, chosen)
touch(ttl)
return {'ok', chosen, str(now), str(expires), str(base), fresh and '1' or '0'}
