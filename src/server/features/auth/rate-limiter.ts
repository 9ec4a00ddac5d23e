import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rateLimits } from './rate-limits.table.ts';

/** Expired counters are deleted once every this many hits of a process. */
const SWEEP_EVERY = 1000;

/**
 * Fixed-window counters in the database (rate_limits), shared by every process on it: a hit is
 * one atomic upsert that starts a new window when the last one has passed.
 */
export function createRateLimitCounter(db: Db) {
  let sinceSweep = 0;
  return {
    /** Counts one hit on `key`; returns the hits in the current window and when it ends. */
    async hit(key: string, windowMs: number, nowMs: number): Promise<{ hits: number; resetAtMs: number }> {
      const now = new Date(nowMs);
      const next = new Date(nowMs + windowMs);
      const [row] = await db
        .insert(rateLimits)
        .values({ key, hits: 1, resetAt: next })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            hits: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimits.hits} + 1 end`,
            resetAt: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${next.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ hits: rateLimits.hits, resetAt: rateLimits.resetAt });
      if (++sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        db.delete(rateLimits)
          .where(lt(rateLimits.resetAt, now))
          .then(
            () => undefined,
            (err: unknown) => console.warn(`rate limit sweep failed: ${err instanceof Error ? err.message : String(err)}`),
          );
      }
      return { hits: row!.hits, resetAtMs: row!.resetAt.getTime() };
    },
    /** The current window's hits on `key` (0 when none), without counting one. */
    async peek(key: string, nowMs: number): Promise<{ hits: number; resetAtMs: number }> {
      const [row] = await db
        .select()
        .from(rateLimits)
        .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, new Date(nowMs))));
      return row ? { hits: row.hits, resetAtMs: row.resetAt.getTime() } : { hits: 0, resetAtMs: 0 };
    },
    async reset(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
  };
}
export type RateLimitCounter = ReturnType<typeof createRateLimitCounter>;

/** A fixed-window limit per key, for limits the route plugin cannot express (per account). */
export function createKeyedLimiter(opts: { counter: RateLimitCounter; prefix: string; max: number; windowMs: number; now: () => Date }) {
  const keyOf = (key: string) => `${opts.prefix}:${key}`;
  return {
    /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
    async hit(key: string): Promise<number> {
      const nowMs = opts.now().getTime();
      const { hits, resetAtMs } = await opts.counter.hit(keyOf(key), opts.windowMs, nowMs);
      return hits > opts.max ? (resetAtMs - nowMs) / 1000 : 0;
    },
    reset: (key: string) => opts.counter.reset(keyOf(key)),
  };
}

type StoreCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;
type RouteInfo = { method?: string | string[]; url?: string };
/**
 * At run time the plugin hands `child` the route's merged limit options, the route itself as
 * `routeInfo` (its declared type says the route options); the constructor gets the global ones.
 */
const routeOf = (options: object): RouteInfo | undefined => (options as { routeInfo?: RouteInfo }).routeInfo;

/**
 * A store for @fastify/rate-limit on the shared counters: each route's limits count across every
 * worker and instance. The plugin makes one per route (`child`), keyed by method and path.
 */
export function sharedRateLimitStore(counter: RateLimitCounter): FastifyRateLimitStoreCtor {
  const toError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
  class SharedRateLimitStore implements FastifyRateLimitStore {
    readonly prefix: string;
    constructor(options: object) {
      const route = routeOf(options);
      this.prefix = route?.url ? `route:${[route.method ?? ''].flat().join(',')} ${route.url}` : 'route:';
    }
    incr(key: string, cb: StoreCallback, timeWindow: number) {
      const nowMs = Date.now();
      counter.hit(`${this.prefix}|${key}`, timeWindow, nowMs).then(
        ({ hits, resetAtMs }) => cb(null, { current: hits, ttl: Math.max(0, resetAtMs - nowMs) }),
        (err: unknown) => cb(toError(err)),
      );
    }
    /** The plugin's non-counting read (`{ increment: false }`). */
    read(key: string, cb: StoreCallback) {
      const nowMs = Date.now();
      counter.peek(`${this.prefix}|${key}`, nowMs).then(
        ({ hits, resetAtMs }) => cb(null, { current: hits, ttl: hits ? Math.max(0, resetAtMs - nowMs) : 0 }),
        (err: unknown) => cb(toError(err)),
      );
    }
    child(routeOptions: object): FastifyRateLimitStore {
      return new SharedRateLimitStore(routeOptions);
    }
  }
  return SharedRateLimitStore;
}
