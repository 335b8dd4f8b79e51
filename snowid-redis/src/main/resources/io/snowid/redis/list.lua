-- list: no ARGV. Read-only, for operators: Redis's clock, the namespace's state and every record.
-- Answers {now, maxTtl, maxSkew, written, lostUntil, id, record, id, record, ...} (records as in
-- common.lua; '-' for a state field that is missing).
local st = redis.call('HMGET', KEYS[4], 'maxTtl', 'maxSkew', 'written', 'lostUntil')
local out = {str(now), st[1] or '-', st[2] or '-', st[3] or '-', st[4] or '-'}
for _, v in ipairs(redis.call('HGETALL', KEYS[1])) do
  out[#out + 1] = v
end
return out
