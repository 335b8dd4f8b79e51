-- release: ARGV id, token, issuedUpTo (holder's ms, or '-').
-- The record keeps the instance (for its next acquisition) and a high-water mark of what was
-- really issued, never below the earlier holders' (base); the id leaves the held set.
local rec = redis.call('HGET', KEYS[1], ARGV[1])
if not rec then
  return 0
end
local f = split(rec)
if f[2] ~= ARGV[2] then
  return 0
end
local hw = num(f[5])
local issued = num(ARGV[3])
if issued and (not hw or issued > hw) then
  hw = issued
end
redis.call('HSET', KEYS[1], ARGV[1], record(f[1], '-', nil, hw, nil))
redis.call('ZREM', KEYS[2], ARGV[1])
wrote()
return 1
