-- list: no ARGV. Read-only, for operators: every record of the namespace and Redis's clock.
-- Answers {now, id, record, id, record, ...} (records as in common.lua).
local out = {str(now)}
for _, v in ipairs(redis.call('HGETALL', KEYS[1])) do
  out[#out + 1] = v
end
return out
