-- snowid lease scripts: what every script starts with. The design is explained in
-- docs/design.md, "The redis:// backend". Keys (one hash tag {PREFIX}, so one cluster slot):
--   KEYS[1] {P}:NS:ids   hash    id -> "instance token expiresAt highWater base" ("-" for none)
--   KEYS[2] {P}:NS:held  zset    id -> expiresAt, for the ids that have a token
--   KEYS[3] {P}:NS:last  hash    instance -> the id it took last
--   KEYS[4] {P}:NS:state hash    the namespace's limits maxTtl and maxSkew (ms); written (Redis time
--                                of its newest write); records (how many id records it created);
--                                lostUntil (ID time: after a loss of its state, nobody issues at
--                                or before it)
--   KEYS[5] {P}:registry hash    written (Redis time of the newest write to any namespace of the
--                                prefix); lostAt (Redis time a loss of the prefix's state was last
--                                found: every namespace's holders may have been forgotten then);
--                                ns:NS per namespace it created (Redis time of its first
--                                acquisition: a namespace without state is one that lost it)
-- Times are Unix ms: expiresAt, written and lostAt by Redis's clock, highWater, base and lostUntil are ID
-- times, the holders' clocks.
if redis.replicate_commands then
  redis.replicate_commands() -- Redis < 5: writes after TIME need effects replication
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local KEEP = 120000 -- twice the largest clock skew a holder accepts (1 min)
local WRITTEN_LIFE = 604800000 -- 7 days

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

-- Every script that changes a namespace notes when: its newest write, and the prefix's.
local function wrote()
  redis.call('HSET', KEYS[4], 'written', str(now))
  redis.call('HSET', KEYS[5], 'written', str(now))
  redis.call('PEXPIRE', KEYS[5], WRITTEN_LIFE)
end

-- Keeps ids, held, last and state until every lease, high-water mark and lostUntil in them may
-- still matter: ms + KEEP after the latest write. An expiry only moves forward.
local function touch(ms)
  local untilMs = now + ms + KEEP
  for i = 1, 4 do
    local p = redis.call('PTTL', KEYS[i])
    if p == -1 or (p >= 0 and now + p < untilMs) then
      redis.call('PEXPIREAT', KEYS[i], str(untilMs))
    end
  end
end
