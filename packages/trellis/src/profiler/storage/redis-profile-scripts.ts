import type { Redis } from 'ioredis';

/**
 * The Redis store's writes as server-side scripts: one EVALSHA per profile and one per batch for
 * retention, where the same work as separate commands took about 25 per profile, each built,
 * sent and parsed by the app's own thread (profiling: ioredis was the largest part of the
 * profiler's cost per request with Redis storage). Keys are built from the prefix in ARGV, so
 * the scripts suit a single Redis (or one cluster slot via a hash-tagged prefix), as the store does.
 */

/**
 * ARGV: prefix, token, profile JSON, summary JSON, TTL seconds, score, index TTL, then the index key
 * suffixes. Claims `p:<token>` with SET NX first: a taken token touches nothing and returns 0.
 */
const WRITE = `
local k, token, score, ttl, indexTtl = ARGV[1], ARGV[2], ARGV[6], ARGV[5], ARGV[7]
if not redis.call('SET', k .. 'p:' .. token, ARGV[3], 'EX', ttl, 'NX') then return 0 end
redis.call('SET', k .. 's:' .. token, ARGV[4], 'EX', ttl)
for i = 8, #ARGV do
  redis.call('ZADD', k .. ARGV[i], score, token)
  redis.call('EXPIRE', k .. ARGV[i], indexTtl)
end
redis.call('ZADD', k .. 'sum', score, ARGV[4])
redis.call('EXPIRE', k .. 'sum', indexTtl)
return 1
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
