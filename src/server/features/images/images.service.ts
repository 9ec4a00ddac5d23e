import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { SourceError, type SafeFetch } from '../ingestion/ingestion.types.ts';
import { ImageRefused, MAX_IMAGE_BYTES, resizeImage } from './image-files.ts';
import { createImagesRepository, type ClaimedImage } from './images.repository.ts';

/** An image that failed this many times (or was refused for its content) is not tried again. */
export const MAX_ATTEMPTS = 3;
/** A claim older than this was lost (the worker stopped): the image may be claimed again. */
const LEASE_MS = 10 * 60_000;
/** Wait after the first failure; each further failure waits four times longer. */
const BACKOFF_MS = 15 * 60_000;

/** Guarded-fetch refusals that another try would meet again. */
const FINAL_FETCH_ERROR = /larger than|not a public address|not a valid URL|only http and https|too many redirects/;

const ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1';

export interface CacheSummary {
  /** New addresses found on events. */
  queued: number;
  /** Events given an image kept earlier. */
  linked: number;
  ready: number;
  failed: number;
}

export interface ImagesServiceDeps {
  db: Db;
  clock: Clock;
  /** The guarded fetch (with the demo reader in front): the same one sources are read through. */
  fetch: SafeFetch;
  /** Addresses the demo serves; their images are marked as demo content. */
  isDemoUrl?: (url: string) => boolean;
  log?: { warn: (o: object, m: string) => void };
}

/** A one-line reason for a failure, with HTTP statuses named. */
const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/**
 * Keeps resized copies of the images sources point at: fetched once per address through the
 * guarded fetch, checked and resized (see image-files.ts), stored as WebP, and linked to every
 * event that shows the address. Failures are recorded on the image and never thrown.
 */
export function createImagesService(deps: ImagesServiceDeps) {
  const { db, clock } = deps;
  const repo = createImagesRepository(db);
  const isDemoUrl = deps.isDemoUrl ?? (() => false);

  async function fetchBytes(url: string): Promise<Buffer> {
    const res = await deps.fetch(url, { headers: { accept: ACCEPT } });
    if (res.status < 200 || res.status > 299) {
      const err = new Error(`HTTP ${res.status}`);
      // A refusal (403, 404, 410) stays one; a server error or rate limit may pass.
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) throw new ImageRefused(err.message);
      throw err;
    }
    if (res.body.length > MAX_IMAGE_BYTES) throw new ImageRefused(`larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
    return res.body;
  }

  /** Fetches, checks and stores one claimed image; records the outcome. */
  async function keep(image: ClaimedImage): Promise<'ready' | 'failed'> {
    try {
      const resized = await resizeImage(await fetchBytes(image.sourceUrl));
      await db.transaction(async (tx) => {
        const r = createImagesRepository(tx);
        await r.insertVariants(image.id, resized.variants);
        await r.markReady(image.id, { width: resized.width, height: resized.height }, clock.now());
        await r.linkEvents(image.id, image.sourceUrl);
      });
      return 'ready';
    } catch (err) {
      const final = err instanceof ImageRefused || (err instanceof SourceError && FINAL_FETCH_ERROR.test(err.message));
      deps.log?.warn({ image: image.sourceUrl, attempt: image.attempts, final, err: reasonOf(err) }, 'image not kept');
      try {
        await repo.markFailed(image.id, reasonOf(err), clock.now(), final ? { maxAttempts: MAX_ATTEMPTS } : null);
      } catch (dbErr) {
        deps.log?.warn({ image: image.sourceUrl, err: reasonOf(dbErr) }, 'image failure not recorded');
      }
      return 'failed';
    }
  }

  return {
    /**
     * One bounded batch: links new events to images kept before (unless `link` is false), claims
     * up to `batch` images (queueing new addresses when too few are waiting), and fetches them,
     * `concurrency` at a time.
     */
    async cacheBatch(o: { batch?: number; concurrency?: number; link?: boolean } = {}): Promise<CacheSummary> {
      const batch = o.batch ?? 4;
      const concurrency = Math.max(1, o.concurrency ?? 2);
      const now = clock.now();
      const claimOptions = { maxAttempts: MAX_ATTEMPTS, leaseMs: LEASE_MS, backoffMs: BACKOFF_MS };
      const linked = o.link === false ? 0 : await repo.linkToReady(500);
      const claimed = await repo.claim(batch, now, claimOptions);
      let queued = 0;
      // New addresses are looked for only when the queue runs short: that query reads every event still without an image.
      if (claimed.length < batch || batch === 0) {
        queued = await repo.insertMissing(Math.max(batch * 10, 50), now, isDemoUrl);
        if (queued && claimed.length < batch) claimed.push(...(await repo.claim(batch - claimed.length, now, claimOptions)));
      }
      const summary: CacheSummary = { queued, linked, ready: 0, failed: 0 };
      let next = 0;
      const worker = async () => {
        while (next < claimed.length) {
          const image = claimed[next++]!;
          summary[await keep(image)] += 1;
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, worker));
      return summary;
    },

    /** One kept copy's bytes, with an ETag of its content. */
    async variant(imageId: string, width: number) {
      const row = await repo.findVariant(imageId, width);
      if (!row) throw notFound('Image not found');
      const etag = `"${createHash('sha256').update(row.bytes).digest('base64url').slice(0, 27)}"`;
      return { contentType: row.contentType, bytes: row.bytes, etag };
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;
