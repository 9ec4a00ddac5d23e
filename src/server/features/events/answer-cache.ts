import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
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
  /** The body compressed, per encoding, once asked for (see encodedBody). */
  encoded?: Partial<Record<SharedEncoding, Buffer>>;
}

/**
 * The encodings a kept answer is sent in already compressed: what browsers ask for. A request
 * asking for another (or none) gets the text, which the compress plugin handles as any answer.
 */
export type SharedEncoding = 'br' | 'gzip';
/** Below this an answer is sent as text: the compress plugin's `threshold` (app.ts) and ours. */
export const COMPRESS_THRESHOLD = 1024;
// The compress plugin's order of preference and its negotiation (@fastify/compress), so that a
// kept answer is sent in the encoding a fresh one would be.
const SUPPORTED = [...(typeof (zlib as { createZstdCompress?: unknown }).createZstdCompress === 'function' ? ['zstd'] : []), 'br', 'gzip', 'deflate', 'identity'];
// The plugin's options: brotli at quality 4 (its recommended default), gzip at zlib's default.
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** Which encoding a request gets a kept answer in, as the compress plugin would choose; null: the text. */
export function sharedEncoding(headers: Record<string, string | string[] | undefined>): SharedEncoding | null {
  const accept = headers['accept-encoding'];
  if (typeof accept !== 'string' || headers['x-no-compression'] !== undefined) return null;
  const chosen = negotiate(accept.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), SUPPORTED);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/**
 * A kept answer's body in `encoding`, compressed the first time it is asked for and kept with it:
 * compressing each answer sent again cost 13% of a server's time under the benchmark's crowd,
 * about half of whose answers are sent again. Null below COMPRESS_THRESHOLD (sent as text).
 */
export function encodedBody(answer: SharedAnswer, encoding: SharedEncoding): Buffer | null {
  if (Buffer.byteLength(answer.body) < COMPRESS_THRESHOLD) return null;
  const encoded = (answer.encoded ??= {});
  return (encoded[encoding] ??= encoding === 'br' ? zlib.brotliCompressSync(answer.body, BROTLI) : zlib.gzipSync(answer.body));
}

export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

export function createAnswerCache(maxBytes = ANSWER_CACHE_BYTES, maxAgeMs = AGGREGATE_BUCKET_MS) {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, SharedAnswer>();
  let bytes = 0;
  // A compressed form, made later, weighs about a fifth of the body: counted from the start.
  const sizeOf = (key: string, a: SharedAnswer) => key.length + Math.ceil(a.body.length * 1.2) + 200;
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
