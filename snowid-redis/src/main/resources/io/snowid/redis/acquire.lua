-- acquire: ARGV size, mask, match, instance, token, ttl (ms), mayIssueUntil (holder's ms), maxTtl,
-- maxSkew, slack (ms), namespace. The holder may take an id v only when 0 <= v < size and v's bits at mask
-- are match. Answers {'ok', id, now, expiresAt, base, loss, found} (loss: why it waits out a loss
-- of the state, or ''; found: '1' if this call found it), {'full', held} (held: the live leases
-- on the ids it may take, all of them) or {'terms', maxTtl, maxSkew, held} (the namespace's limits
-- differ and holders live).
local size = tonumber(ARGV[1])
local mask = tonumber(ARGV[2])
local match = tonumber(ARGV[3])
local instance = ARGV[4]
local token = ARGV[5]
local ttl = tonumber(ARGV[6])
local promise = tonumber(ARGV[7])
local maxTtl = tonumber(ARGV[8])
local maxSkew = tonumber(ARGV[9])
local slack = tonumber(ARGV[10])
local created = 'ns:' .. ARGV[11] -- the registry's field that remembers creating the namespace

-- expired leases are free; the rest are taken
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', str(now))

local st = redis.call('HMGET', KEYS[4], 'maxTtl', 'maxSkew', 'written', 'records', 'lostUntil')
local recTtl, recSkew, written, records = num(st[1]), num(st[2]), num(st[3]), num(st[4]) or 0
local lostUntil = num(st[5])

-- One set of limits per namespace while it has live leases (even in a state that may be stale:
-- refusing is always safe).
if recTtl and recSkew and (recTtl ~= maxTtl or recSkew ~= maxSkew) then
  local live = redis.call('ZCARD', KEYS[2])
  if live > 0 then
    return {'terms', str(recTtl), str(recSkew), str(live)}
  end
end

-- Can the state be trusted? Live holders write at least every half lease time, so a prefix
-- without a write for the longest maxTtl any holder of it asked before (recorded with it; this
-- one's for a prefix without such a record), or a namespace without one for
-- its recorded maxTtl, was idle, lost or rolled back to an older snapshot: no record in it can be
-- believed, and a holder Redis forgot may issue until lostUntil. A loss of the prefix's state
-- (lostAt) concerns every namespace of it, also one that looks new.
local rg = redis.call('HMGET', KEYS[5], 'written', 'lostAt', 'maxTtl', created)
local registryWritten, lostAt, registryTtl = num(rg[1]), num(rg[2]), num(rg[3])
local remembered = rg[4]
local loss = ''
if not registryWritten then
  loss = 'Redis has no state for the prefix (new, or it lost its data)'
elseif now - registryWritten > (registryTtl or maxTtl) then
  loss = 'no write to the prefix for ' .. str(now - registryWritten) .. ' ms (idle, or Redis rolled back)'
end
if not registryTtl or maxTtl > registryTtl then
  redis.call('HSET', KEYS[5], 'maxTtl', str(maxTtl))
end
if not remembered then
  redis.call('HSET', KEYS[5], created, str(now))
end
if loss ~= '' then
  lostAt = now
  redis.call('HSET', KEYS[5], 'lostAt', str(now))
elseif not written or not recTtl or not recSkew then
  if redis.call('HLEN', KEYS[1]) > 0 then
    loss = 'its records have no state (keys deleted by hand?)'
  elseif remembered then
    -- the prefix created it: its keys were deleted, or expired after it was idle
    loss = 'it has no state though the prefix created it (keys deleted by hand, or idle)'
  end
elseif now - written > recTtl then
  loss = 'no write to the namespace for ' .. str(now - written) .. ' ms (idle, or Redis rolled back)'
elseif redis.call('HLEN', KEYS[1]) < records then
  loss = 'records are missing (' .. redis.call('HLEN', KEYS[1]) .. ' of ' .. records .. ')'
end
local lt, ls = maxTtl, maxSkew
if recTtl and recTtl > lt then
  lt = recTtl
end
if recSkew and recSkew > ls then
  ls = recSkew
end
local bound = nil
local found = loss ~= '' and '1' or '0'
if loss ~= '' then
  bound = now + lt + ls + slack
  records = redis.call('HLEN', KEYS[1])
elseif lostAt and lostAt + lt + ls + slack > now then
  bound = lostAt + lt + ls + slack
  loss = 'Redis lost the prefix\'s state ' .. str(now - lostAt) .. ' ms ago'
end
if bound and (not lostUntil or bound > lostUntil) then
  lostUntil = bound
  redis.call('HSET', KEYS[4], 'lostUntil', str(lostUntil))
end
redis.call('HSET', KEYS[4], 'maxTtl', str(maxTtl), 'maxSkew', str(maxSkew))
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

-- base: what earlier holders may have issued: the id's high-water mark, and lostUntil after a
-- loss of the namespace's state.
local rec = redis.call('HGET', KEYS[1], chosen)
local base, previous
if rec then
  local f = split(rec)
  previous = f[1]
  base = num(f[4])
else
  records = records + 1
end
if lostUntil and (not base or lostUntil > base) then
  base = lostUntil
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
redis.call('HSET', KEYS[4], 'records', str(records))
wrote()
local keep = math.max(ttl, maxTtl)
if lostUntil and lostUntil - now > keep then
  keep = lostUntil - now
end
touch(keep)
return {'ok', chosen, str(now), str(expires), str(base), loss, found}
