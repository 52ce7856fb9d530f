import type { Redis } from 'ioredis';

/**
 * The Redis store's writes as server-side scripts: one EVALSHA per batch of profiles and one for
 * retention, where the same work as separate commands took about 25 per profile, each built,
 * sent and parsed by the app's own thread (profiling: ioredis was the largest part of the
 * profiler's cost per request with Redis storage). Keys are built from the prefix in ARGV, so
 * the scripts suit a single Redis (or one cluster slot via a hash-tagged prefix), as the store does.
 */

/**
 * Writes a batch of profiles. ARGV: prefix, index TTL, then for each profile: token, record data,
 * summary JSON, TTL seconds, score, the number n of its index key suffixes, and those n suffixes.
 * Each profile claims `p:<token>` with SET NX first: a taken token touches nothing. Returns one
 * flag per profile (1 written, 0 taken). Index keys get their TTL once per call, not once per
 * profile: one call per batch instead of one per profile, and six EXPIREs fewer per profile,
 * measured as about a third less Redis CPU per profile.
 */
const WRITE = `
local k, indexTtl = ARGV[1], ARGV[2]
local written, touched, i = {}, {}, 3
while i <= #ARGV do
  local token, summary, score, n = ARGV[i], ARGV[i + 2], ARGV[i + 4], tonumber(ARGV[i + 5])
  if redis.call('SET', k .. 'p:' .. token, ARGV[i + 1], 'EX', ARGV[i + 3], 'NX') then
    redis.call('SET', k .. 's:' .. token, summary, 'EX', ARGV[i + 3])
    for j = i + 6, i + 5 + n do
      redis.call('ZADD', k .. ARGV[j], score, token)
      touched[ARGV[j]] = true
    end
    redis.call('ZADD', k .. 'sum', score, summary)
    touched['sum'] = true
    written[#written + 1] = 1
  else
    written[#written + 1] = 0
  end
  i = i + 6 + n
end
for suffix in pairs(touched) do redis.call('EXPIRE', k .. suffix, indexTtl) end
return written
`;

/**
 * ARGV: prefix, maxProfiles, most entries trimmed per call, cutoff score. Removes the oldest beyond
 * maxProfiles and those older than the cutoff from every index they are in (read from their
 * summary) with their keys, and trims `sum` to the same bounds. Returns how many were removed.
 */
const TRIM = `
local k, max, batch, cutoff = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local time = k .. 'time'
local excess = math.min(redis.call('ZCARD', time) - max, batch)
local doomed = {}
if excess > 0 then doomed = redis.call('ZRANGE', time, 0, excess - 1) end
local expired = redis.call('ZRANGEBYSCORE', time, '-inf', '(' .. cutoff, 'LIMIT', 0, batch)
local done, n = {}, 0
local function drop(token)
  if done[token] then return end
  done[token] = true
  n = n + 1
  local json = redis.call('GET', k .. 's:' .. token)
  if json then
    local s = cjson.decode(json)
    redis.call('ZREM', k .. 'method:' .. s.method, token)
    redis.call('ZREM', k .. 'status:' .. string.format('%d', s.statusCode), token)
    redis.call('ZREM', k .. 'ip:' .. s.ip, token)
  end
  redis.call('ZREM', time, token)
  redis.call('ZREM', k .. 'main', token)
  redis.call('DEL', k .. 'p:' .. token, k .. 's:' .. token)
end
for _, token in ipairs(doomed) do drop(token) end
for _, token in ipairs(expired) do drop(token) end
if n == 0 then return 0 end
if excess > 0 then redis.call('ZREMRANGEBYRANK', k .. 'sum', 0, -(max + 1)) end
redis.call('ZREMRANGEBYSCORE', k .. 'sum', '-inf', '(' .. cutoff)
return n
`;

export const WRITE_COMMAND = 'trellisProfilerWrite';
export const TRIM_COMMAND = 'trellisProfilerTrim';

/** Defines the scripts as commands on a client (ioredis sends EVALSHA, and the script on NOSCRIPT). */
export function defineProfileScripts(client: Pick<Redis, 'defineCommand'>): void {
  const defined = client as unknown as Record<string, unknown>;
  if (typeof defined[WRITE_COMMAND] !== 'function') client.defineCommand(WRITE_COMMAND, { numberOfKeys: 0, lua: WRITE });
  if (typeof defined[TRIM_COMMAND] !== 'function') client.defineCommand(TRIM_COMMAND, { numberOfKeys: 0, lua: TRIM });
}
