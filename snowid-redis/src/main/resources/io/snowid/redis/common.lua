-- snowid lease scripts: what every script starts with. The design is explained in
-- RedisLeaseCoordinator.java. Keys (one hash tag {PREFIX}, so one cluster slot):
--   KEYS[1] {P}:NS:ids   hash    id -> "instance token expiresAt highWater base" ("-" for none)
--   KEYS[2] {P}:NS:held  zset    id -> expiresAt, for the ids that have a token
--   KEYS[3] {P}:NS:last  hash    instance -> the id it took last
--   KEYS[4] {P}:epoch    string  Redis time when the state of this prefix began
-- Times are Unix ms: expiresAt and epoch by Redis's clock, highWater and base by the holders'.
if redis.replicate_commands then
  redis.replicate_commands() -- Redis < 5: writes after TIME need effects replication
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local KEEP = 120000 -- twice the largest clock skew a holder accepts (1 min)
local EPOCH_LIFE = 604800000 -- 7 days

local function num(s)
  if not s or s == '-' then
    return nil
  end
  return tonumber(s)
end

local function str(n)
  if not n then
    return '-'
  end
  return string.format('%.0f', n)
end

local function split(rec)
  local f = {}
  for w in string.gmatch(rec, '%S+') do
    f[#f + 1] = w
  end
  return f
end

local function record(instance, token, expires, hw, base)
  return instance .. ' ' .. token .. ' ' .. str(expires) .. ' ' .. str(hw) .. ' ' .. str(base)
end

-- The registry's start; created (now) when missing: Redis lost its data, or the prefix is new.
local function epoch()
  local e = redis.call('GET', KEYS[4])
  if not e then
    redis.call('SET', KEYS[4], str(now), 'PX', EPOCH_LIFE)
    return now, true
  end
  redis.call('PEXPIRE', KEYS[4], EPOCH_LIFE)
  return tonumber(e), false
end

-- Keeps ids, held and last until every lease and high-water mark in them may still matter:
-- ttl + KEEP after the latest write. An expiry only moves forward.
local function touch(ttl)
  local untilMs = now + ttl + KEEP
  for i = 1, 3 do
    local p = redis.call('PTTL', KEYS[i])
    if p == -1 or (p >= 0 and now + p < untilMs) then
      redis.call('PEXPIREAT', KEYS[i], str(untilMs))
    end
  end
end
