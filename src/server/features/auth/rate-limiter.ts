import type { Clock } from '../../clock.ts';

/** A fixed-window counter per key, for limits the IP-based plugin cannot express (per account). */
export function createKeyedLimiter(opts: { max: number; windowMs: number; clock: Clock }) {
  const hits = new Map<string, { count: number; resetAt: number }>();
  return {
    /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
    hit(key: string): number {
      const now = opts.clock.now().getTime();
      let entry = hits.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + opts.windowMs };
        hits.set(key, entry);
      }
      entry.count += 1;
      if (hits.size > 10_000) {
        for (const [k, v] of hits) if (v.resetAt <= now) hits.delete(k);
      }
      return entry.count > opts.max ? (entry.resetAt - now) / 1000 : 0;
    },
    reset(key: string) {
      hits.delete(key);
    },
  };
}
