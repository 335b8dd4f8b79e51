-- abandon: ARGV id. For an operator: marks a lease that expired by Redis's clock released,
-- keeping its high-water mark, so the next holder still starts after it. A lease that has not
-- expired is left alone: its holder may be alive (it fences once its renewals fail).
-- Answers {'ok'}, {'none'} (no record, or released already) or {'alive', instance, expiresAt}.
local rec = redis.call('HGET', KEYS[1], ARGV[1])
if not rec then
  return {'none'}
end
local f = split(rec)
if f[2] == '-' then
  return {'none'}
end
local expires = num(f[3])
if expires and expires > now then
  return {'alive', f[1], str(expires)}
end
redis.call('HSET', KEYS[1], ARGV[1], record(f[1], '-', nil, num(f[4]), nil))
redis.call('ZREM', KEYS[2], ARGV[1])
wrote()
return {'ok'}
