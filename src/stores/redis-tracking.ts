/**
 * The Redis store's tracked orders (`processor.track`, `processor.sweep`): a sorted set of the orders by the time
 * they were last checked, a hash of their ids and times, and a hash of when the gateway first did not know one.
 * The three keys share a hash tag, `{tracked}`, so that one script can use them on a Redis Cluster too.
 *
 * @module
 */
import type { Cluster, Redis } from 'ioredis';
import { GatewayError } from '../errors/index.js';
import { readExpiry, storedExpiry, type OrderTracking, type TrackedOrder } from '../notify/tracking.js';

// KEYS: the due set, the orders hash, the not-found hash. An idempotency key (`<id>:<state number>`) can never
// be one of these names after the prefix: none ends in `:due`, `:orders` or `:not-found`.
// Returns the record kept: the one given, or the first.
const TRACK = `if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 1 then redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return redis.call('HGET', KEYS[2], ARGV[1])`;

// Takes the due orders and marks them checked in one step: two sweeps never take the same order.
const CHECK_OUT = `local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
  local order = redis.call('HGET', KEYS[2], id)
  if order then
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    out[#out + 1] = order
    out[#out + 1] = redis.call('HGET', KEYS[3], id) or ''
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out`;

// Only for an order still tracked: a late record for one forgotten meanwhile would stay behind for good (and
// date a later re-track of it).
const NOT_FOUND = `if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2]) end
return 1`;

const FORGET = `redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1`;

/** Tracked orders in Redis under `prefix` (the sweep reads the store's horizon, `doneTtlMs`, from the store itself). */
export function redisTracking(client: Redis | Cluster, prefix: string): OrderTracking {
  const keys = [`${prefix}{tracked}:due`, `${prefix}{tracked}:orders`, `${prefix}{tracked}:not-found`] as const;
  const run = (script: string, ...args: (string | number)[]) => client.eval(script, keys.length, ...keys, ...args) as Promise<unknown>;
  return {
    async track(order) {
      const kept = (await run(TRACK, order.payOrderId, JSON.stringify([order.payOrderId, order.mchOrderNo, order.trackedAt, storedExpiry(order.expiresAt)]), order.trackedAt)) as string;
      return decode(kept, '').mchOrderNo;
    },
    async checkOut(dueBy, checkedAt, limit) {
      const flat = (await run(CHECK_OUT, dueBy, checkedAt, limit)) as string[];
      const orders: TrackedOrder[] = [];
      for (let i = 0; i < flat.length; i += 2) orders.push(decode(flat[i]!, flat[i + 1]!));
      return orders;
    },
    async notFound(payOrderId, since) {
      await run(NOT_FOUND, payOrderId, since);
    },
    async forget(payOrderId) {
      await run(FORGET, payOrderId);
    },
  };
}

/** Reads back what `track` wrote; anything else in the hash is not an order this SDK tracked. */
function decode(text: string, notFoundSince: string): TrackedOrder {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || value.length !== 4 || typeof value[0] !== 'string' || typeof value[1] !== 'string' || !Number.isSafeInteger(value[2]) || !Number.isSafeInteger(value[3])) {
    throw new GatewayError('A tracked order in Redis is not what processor.track wrote: check that nothing else writes under the store\'s prefix.');
  }
  return { payOrderId: value[0], mchOrderNo: value[1], trackedAt: value[2] as number, expiresAt: readExpiry(value[3] as number), notFoundSince: notFoundSince === '' ? undefined : Number(notFoundSince) };
}
