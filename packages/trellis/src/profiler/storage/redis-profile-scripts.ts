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
 * flag per profile (1 written, 0 taken); a token holding this very profile (same summary) counts
 * as written, so a write retried after a lost reply is idempotent. Index keys get their TTL once per call, not once per
 * profile: one call per batch instead of one per profile, and six EXPIREs fewer per profile,
 * measured as about a third less Redis CPU per profile.
 *
 * The method, status and IP sets are trimmed here, not by TRIM: each set written to loses, in one
 * range removal, its entries older than the oldest profile kept (the lowest score of `time`).
 * Removing each dropped profile from them by name took a GET of its summary, a JSON decode and
 * three ZREMs per profile, about a third of Redis's CPU per profile. Each such set is listed in
 * `indexes`, scored by its newest entry, so TRIM deletes a set once all of it is older than the
 * oldest profile kept; `find` reads them from that score up, never their stale entries.
 *
 * Each sorted set gets one ZADD per call with all of its new entries, not one per profile: the
 * six ZADDs of each profile, each a call out of Lua with its own key built, were the largest part
 * of Redis's CPU per profile (57 µs on a 2-core VM, ZADD 14 of it, the Lua around the calls ~28).
 *
 * The summaries written are published on `<prefix>live` as one JSON array per call, for the live
 * views of every process sharing the store (live/redis-profile-feed.ts), only while one
 * subscribes: PUBSUB NUMSUB is a lookup, where building the message is a copy of every summary.
 */
const WRITE = `
local k, indexTtl = ARGV[1], ARGV[2]
local written, added, suffixes, published, i = {}, {}, {}, {}, 3
local function add(suffix, score, member)
  local entries = added[suffix]
  if not entries then
    entries = {}
    added[suffix] = entries
    suffixes[#suffixes + 1] = suffix
  end
  entries[#entries + 1] = score
  entries[#entries + 1] = member
end
while i <= #ARGV do
  local token, summary, score, n = ARGV[i], ARGV[i + 2], ARGV[i + 4], tonumber(ARGV[i + 5])
  if redis.call('SET', k .. 'p:' .. token, ARGV[i + 1], 'EX', ARGV[i + 3], 'NX') then
    redis.call('SET', k .. 's:' .. token, summary, 'EX', ARGV[i + 3])
    for j = i + 6, i + 5 + n do add(ARGV[j], score, token) end
    add('sum', score, summary)
    published[#published + 1] = summary
    written[#written + 1] = 1
  elseif redis.call('GET', k .. 's:' .. token) == summary then
    -- The same profile, already written: a write ioredis sent again after a dropped connection
    -- (the reply was lost, not the write). Stored once; reported as written, not as a clash.
    written[#written + 1] = 1
  else
    written[#written + 1] = 0
  end
  i = i + 6 + n
end
-- One ZADD per set for the whole call, in the order the sets were first written to.
for _, suffix in ipairs(suffixes) do redis.call('ZADD', k .. suffix, unpack(added[suffix])) end
local oldest = redis.call('ZRANGE', k .. 'time', 0, 0, 'WITHSCORES')[2]
for _, suffix in ipairs(suffixes) do
  local newest = added[suffix][#added[suffix] - 1]
  redis.call('EXPIRE', k .. suffix, indexTtl)
  if suffix ~= 'time' and suffix ~= 'main' and suffix ~= 'sum' then
    if oldest then redis.call('ZREMRANGEBYSCORE', k .. suffix, '-inf', '(' .. oldest) end
    redis.call('ZADD', k .. 'indexes', newest, suffix)
  end
end
redis.call('EXPIRE', k .. 'indexes', indexTtl)
if #published > 0 and redis.call('PUBSUB', 'NUMSUB', k .. 'live')[2] > 0 then
  redis.call('PUBLISH', k .. 'live', '[' .. table.concat(published, ',') .. ']')
end
return written
`;

/**
 * ARGV: prefix, maxProfiles, most entries trimmed per call, cutoff score. Removes the oldest beyond
 * maxProfiles and those older than the cutoff (both are the oldest entries of `time`, so together
 * they are the longer of the two) from `time` and `main` with their keys, a few hundred names per
 * command, and trims `sum` to the same bounds. The method, status and IP sets are trimmed by WRITE;
 * here, those whose newest entry is older than the oldest profile kept are deleted whole.
 * Returns how many were removed.
 */
const TRIM = `
local k, max, batch, cutoff = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local time = k .. 'time'
local excess = math.min(redis.call('ZCARD', time) - max, batch)
local doomed = {}
if excess > 0 then doomed = redis.call('ZRANGE', time, 0, excess - 1) end
local expired = redis.call('ZRANGEBYSCORE', time, '-inf', '(' .. cutoff, 'LIMIT', 0, batch)
if #expired > #doomed then doomed = expired end
if #doomed == 0 then return 0 end
for from = 1, #doomed, 200 do
  local names, keys = {}, {}
  for i = from, math.min(from + 199, #doomed) do
    names[#names + 1] = doomed[i]
    keys[#keys + 1] = k .. 'p:' .. doomed[i]
    keys[#keys + 1] = k .. 's:' .. doomed[i]
  end
  redis.call('ZREM', time, unpack(names))
  redis.call('ZREM', k .. 'main', unpack(names))
  redis.call('DEL', unpack(keys))
end
if excess > 0 then redis.call('ZREMRANGEBYRANK', k .. 'sum', 0, -(max + 1)) end
redis.call('ZREMRANGEBYSCORE', k .. 'sum', '-inf', '(' .. cutoff)
local oldest = redis.call('ZRANGE', time, 0, 0, 'WITHSCORES')[2]
local stale = redis.call('ZRANGEBYSCORE', k .. 'indexes', '-inf', oldest and ('(' .. oldest) or '+inf', 'LIMIT', 0, batch)
for _, suffix in ipairs(stale) do redis.call('DEL', k .. suffix) end
if #stale > 0 then redis.call('ZREM', k .. 'indexes', unpack(stale)) end
return #doomed
`;

/**
 * Pins or unpins a profile. ARGV: prefix, token, 1 (pin) or 0 (unpin), TTL seconds, now (ms).
 * Returns 1 when the token names a profile retention has not removed, else 0.
 *
 * A pinned profile leaves every set retention and the index walks read (`time`, `main`, `sum`,
 * its method, status and IP sets) for `pinned`, scored as in `time`, and its keys lose their
 * TTL: TRIM and WRITE's trimming never meet it, and `find` adds the pinned ones that match
 * (they are few) to what the indexes give. Its summary gets `"pinned":true` (appended to the
 * JSON text, taken off again when unpinned), so `read` and `find` say so with no other lookup.
 * Unpinned, it goes back into those sets with its old score and the TTL left to it (none left:
 * deleted), so retention treats it as the profile of its time it is.
 */
const PIN = `
local k, token, pin, ttl, now = ARGV[1], ARGV[2], ARGV[3] == '1', tonumber(ARGV[4]), tonumber(ARGV[5])
local sKey, pKey, flag = k .. 's:' .. token, k .. 'p:' .. token, ',"pinned":true}'
local summary = redis.call('GET', sKey)
if not summary then return 0 end
local pinnedAt = redis.call('ZSCORE', k .. 'pinned', token)
if pin == (pinnedAt ~= false) then
  if pinnedAt then return 1 end
  return cjson.decode(summary).time >= now - ttl * 1000 and 1 or 0
end
if pin then
  local score = redis.call('ZSCORE', k .. 'time', token)
  local s = cjson.decode(summary)
  if not score or s.time < now - ttl * 1000 then return 0 end
  redis.call('PERSIST', pKey)
  redis.call('SET', sKey, string.sub(summary, 1, -2) .. flag)
  for _, suffix in ipairs({ 'time', 'main', 'method:' .. s.method, 'status:' .. s.statusCode, 'ip:' .. s.ip }) do
    redis.call('ZREM', k .. suffix, token)
  end
  redis.call('ZREM', k .. 'sum', summary)
  redis.call('ZADD', k .. 'pinned', score, token)
  return 1
end
local plain = string.sub(summary, 1, -(#flag + 1)) .. '}'
local s = cjson.decode(plain)
redis.call('ZREM', k .. 'pinned', token)
local left = ttl - math.floor((now - s.time) / 1000)
if left <= 0 then
  redis.call('DEL', pKey, sKey)
  return 1
end
redis.call('SET', sKey, plain, 'EX', left)
redis.call('EXPIRE', pKey, left)
local suffixes = { 'time', 'method:' .. s.method, 'status:' .. s.statusCode, 'ip:' .. s.ip }
if s.parent == cjson.null then suffixes[#suffixes + 1] = 'main' end
for i, suffix in ipairs(suffixes) do
  redis.call('ZADD', k .. suffix, pinnedAt, token)
  redis.call('EXPIRE', k .. suffix, ttl)
  if i > 1 and suffix ~= 'main' then redis.call('ZADD', k .. 'indexes', 'GT', pinnedAt, suffix) end
end
redis.call('ZADD', k .. 'sum', pinnedAt, plain)
return 1
`;

export const WRITE_COMMAND = 'trellisProfilerWrite';
export const PIN_COMMAND = 'trellisProfilerPin';
export const TRIM_COMMAND = 'trellisProfilerTrim';

/** Defines the scripts as commands on a client (ioredis sends EVALSHA, and the script on NOSCRIPT). */
export function defineProfileScripts(client: Pick<Redis, 'defineCommand'>): void {
  const defined = client as unknown as Record<string, unknown>;
  if (typeof defined[WRITE_COMMAND] !== 'function') client.defineCommand(WRITE_COMMAND, { numberOfKeys: 0, lua: WRITE });
  if (typeof defined[TRIM_COMMAND] !== 'function') client.defineCommand(TRIM_COMMAND, { numberOfKeys: 0, lua: TRIM });
  if (typeof defined[PIN_COMMAND] !== 'function') client.defineCommand(PIN_COMMAND, { numberOfKeys: 0, lua: PIN });
}
