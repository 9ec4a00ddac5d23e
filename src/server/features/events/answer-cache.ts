/**
 * Answers that anonymous readers share (lists, facets, stats), kept serialized per events version
 * and clock bucket (their ETag) and URL: the landing page's list, the stats and common searches
 * are asked again and again between two changes, and each answer costs the database a query or
 * two. Entries of an older version are never asked for again and leave as the least recently used.
 * Bounded by the bytes of the bodies kept.
 */
export interface SharedAnswer {
  body: string;
  headers: Record<string, string>;
}

export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

export function createAnswerCache(maxBytes = ANSWER_CACHE_BYTES) {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, SharedAnswer>();
  let bytes = 0;
  const sizeOf = (key: string, a: SharedAnswer) => key.length + a.body.length + 200;
  return {
    get(key: string): SharedAnswer | undefined {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
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
