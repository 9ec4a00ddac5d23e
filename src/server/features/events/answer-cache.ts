import { AGGREGATE_BUCKET_MS } from './events.repository.ts';

/**
 * Answers that anonymous readers share (lists, facets, stats), kept serialized per events version
 * and URL for at most AGGREGATE_BUCKET_MS of the app's clock (what has ended leaves the lists with
 * time, as the whole-listing totals are kept that long): the landing page's list, the stats and
 * common searches are asked again and again between two changes, and each answer costs the
 * database a query or two. Each answer's time runs from its own making, so they do not all
 * expire at once at a bucket's turn (every URL missing together doubled the load for a moment).
 * Entries of an older version are never asked for again and leave as the least recently used.
 * Bounded by the bytes of the bodies kept.
 */
export interface SharedAnswer {
  body: string;
  headers: Record<string, string>;
  /** When it was made, on the app's clock (ms). */
  at: number;
}

export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

export function createAnswerCache(maxBytes = ANSWER_CACHE_BYTES, maxAgeMs = AGGREGATE_BUCKET_MS) {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, SharedAnswer>();
  let bytes = 0;
  const sizeOf = (key: string, a: SharedAnswer) => key.length + a.body.length + 200;
  return {
    /** The answer kept for `key`, if it is younger than maxAgeMs at `nowMs`. */
    get(key: string, nowMs: number): SharedAnswer | undefined {
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (nowMs - hit.at >= maxAgeMs || nowMs < hit.at) {
        bytes -= sizeOf(key, hit);
        return undefined;
      }
      entries.set(key, hit);
      return hit;
    },
    set(key: string, answer: SharedAnswer) {
      const size = sizeOf(key, answer);
      if (size > maxBytes) return;
      const old = entries.get(key);
      if (old) {
        bytes -= sizeOf(key, old);
        entries.delete(key);
      }
      entries.set(key, answer);
      bytes += size;
      for (const [k, a] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(k);
        bytes -= sizeOf(k, a);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
