/**
 * The Lua scripts of the crawl's host slots (host-slots.ts): the per-host semaphore's ask and the
 * per-(crawl, host) request stamp. Every key they touch carries the queue prefix, hash-tagged on a
 * Redis Cluster, so a script's keys share one slot.
 */

/**
 * The next free slot of a host goes to the process that Redis refused first (`wanted`, by process
 * token), so a replica whose pages found the host busy takes its turn before the holder that just
 * freed a slot asks again. It lapses after this long without a new refusal: its pages stopped asking
 * (a page that asks every 25–50 ms renews it; one served by its own process's release does not ask
 * again), and a slot kept for it stays unused no longer than this. Only a process holding none of
 * the host's slots claims it (ARGV[7]): one holding some has its own releases, and its asks every
 * 250–500 ms would keep a freed slot from the others for this long each time.
 */
export const WANTED_TTL_MS = 100;

/** A lapsed liveness entry stays this long (then trimmed): past any slot's hold, so none outlives it. */
export const LIVENESS_KEEP_MS = 3_600_000;

/**
 * Politeness shared by every crawl-worker replica, in Redis:
 * - a per-host semaphore (sorted set of holders scored by expiry, so a killed worker's slot frees
 *   itself) capping requests in flight to one host across all crawls;
 * - a per-(crawl, host) next-slot time: each page *reserves* the next free start time (delayMs or
 *   Crawl-delay apart) once and waits for it, so a thousand queued pages of a slow site are each
 *   delayed once, in order, instead of all polling the same slot.
 * Time comes from Redis (TIME) so replicas with skewed clocks agree.
 *
 * A full semaphore first drops the slots of processes whose liveness lapsed (KEYS[5], scored by
 * until when each process token counts as alive: host-slot-liveness.ts): a killed worker's slots
 * free within its liveness instead of its requests' hold. A holder with no liveness entry (none
 * written yet, or trimmed) keeps its slot until its own expiry. A granted slot renews the taker's.
 */
export const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local delay = tonumber(ARGV[2])
local holder = ARGV[3]
local hold = tonumber(ARGV[4])
if delay > 0 then
  local reserved = redis.call('GET', KEYS[3])
  if not reserved then
    local nextAt = tonumber(redis.call('GET', KEYS[2]) or '0')
    local slot = math.max(now, nextAt)
    redis.call('SET', KEYS[2], slot + delay, 'PX', slot + delay - now + 60000)
    redis.call('SET', KEYS[3], slot, 'PX', slot - now + 3600000)
    reserved = slot
  end
  reserved = tonumber(reserved)
  if reserved > now then return reserved - now end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= limit then
  for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local token = string.match(member, '^([^:]+):')
    local aliveUntil = token and redis.call('ZSCORE', KEYS[5], token)
    if aliveUntil and tonumber(aliveUntil) < now then redis.call('ZREM', KEYS[1], member) end
  end
end
local wanted = redis.call('GET', KEYS[4])
if redis.call('ZCARD', KEYS[1]) >= limit or (wanted and wanted ~= ARGV[5]) then
  if ARGV[7] == '1' and (not wanted or wanted == ARGV[5]) then
    redis.call('SET', KEYS[4], ARGV[5], 'PX', ${WANTED_TTL_MS})
  end
  return -1
end
redis.call('ZADD', KEYS[1], now + hold, holder)
redis.call('PEXPIRE', KEYS[1], hold)
redis.call('ZADD', KEYS[5], now + tonumber(ARGV[6]), ARGV[5])
redis.call('PEXPIRE', KEYS[5], tonumber(ARGV[6]) + ${LIVENESS_KEEP_MS})
redis.call('DEL', KEYS[3])
if wanted then redis.call('DEL', KEYS[4]) end
return 0
`;

/**
 * The last request start per (crawl, host). Reservations spread the waits; this stamp, taken
 * right before the request leaves, makes the spacing exact even when a loaded worker takes a
 * while between its grant and its request. Returns ms still to wait (0 = stamped, go).
 */
export const STAMP = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local delay = tonumber(ARGV[1])
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < last + delay then return last + delay - now end
redis.call('SET', KEYS[1], now, 'PX', delay + 60000)
return 0
`;

/**
 * A process's liveness (host-slot-liveness.ts): its token alive until now + ARGV[2] ms; entries
 * lapsed for LIVENESS_KEEP_MS are trimmed (their processes' slots expired long before).
 */
export const BEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local aliveMs = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + aliveMs, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${LIVENESS_KEEP_MS})
redis.call('PEXPIRE', KEYS[1], aliveMs + ${LIVENESS_KEEP_MS})
return 0
`;
