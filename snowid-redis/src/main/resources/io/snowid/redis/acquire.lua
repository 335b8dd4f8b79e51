-- acquire: ARGV size, mask, match, instance, token, ttl (ms), mayIssueUntil (holder's ms), slack
-- (ms). The holder may take an id v only when 0 <= v < size and v's bits at mask are match.
-- Answers {'ok', id, now, expiresAt, base, fresh} or {'full', held}: held is the number of live
-- leases on the ids it may take, all of them.
local size = tonumber(ARGV[1])
local mask = tonumber(ARGV[2])
local match = tonumber(ARGV[3])
local instance = ARGV[4]
local token = ARGV[5]
local ttl = tonumber(ARGV[6])
local promise = tonumber(ARGV[7])
local slack = tonumber(ARGV[8])
local start, fresh = epoch()

-- expired leases are free; the rest are taken
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', str(now))
local taken = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  taken[id] = true
end

-- The values of the bits the request leaves free, lowest first. Lua's numbers are doubles and
-- bit.* has 32 bits: the ids are handled with exact double arithmetic (the caller keeps size at
-- most 2^53), a bit being floor(v / w) % 2.
local free, m, w = {}, mask, 1
while w < size do
  if m % 2 == 0 then
    free[#free + 1] = w
  end
  m = math.floor(m / 2)
  w = w * 2
end

-- Whether the request allows id v: its free bits cleared, what is left is match.
local function allows(v)
  if not v or v < 0 or v >= size or v ~= math.floor(v) then
    return false
  end
  for _, f in ipairs(free) do
    if math.floor(v / f) % 2 == 1 then
      v = v - f
    end
  end
  return v == match
end

-- The k-th allowed id from 0, in increasing order: k's bits spread over the free bits.
local function allowed(k)
  local v = match
  for i = 1, #free do
    if k == 0 then
      break
    end
    if k % 2 == 1 then
      v = v + free[i]
    end
    k = math.floor(k / 2)
  end
  return v
end

-- the instance's last id if free and allowed, else the lowest free allowed id: at most
-- (taken ids) + 1 steps
local chosen = redis.call('HGET', KEYS[3], instance)
if chosen and (taken[chosen] or not allows(tonumber(chosen))) then
  chosen = nil
end
local count = 2 ^ #free
if not chosen then
  for k = 0, count - 1 do
    local id = str(allowed(k))
    if not taken[id] then
      chosen = id
      break
    end
  end
end
if not chosen then
  return {'full', str(count)} -- the walk found every allowed id taken
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
