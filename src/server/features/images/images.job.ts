import type { EventBus } from '../../lib/event-bus.ts';
import type { CacheSummary, ImagesService } from './images.service.ts';

export interface ImageJobOptions {
  images: Pick<ImagesService, 'cacheBatch'>;
  /** Events arriving or changing (an ingestion run, an approval) start a round soon after. */
  bus?: EventBus;
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /** The sweep that catches everything else (pending events, retries after back-off). */
  intervalMs?: number;
  /** A burst of event updates starts one round, this long after the first. */
  debounceMs?: number;
  /** Images fetched at most per round; the next round goes on from there. */
  maxPerRound?: number;
  /** Images fetched at a time, and how many per batch. */
  concurrency?: number;
  batch?: number;
}

const empty = (): CacheSummary => ({ queued: 0, linked: 0, ready: 0, failed: 0 });

/**
 * Runs the image cache in the background: a round after events arrive and on a fixed sweep,
 * one round at a time per instance, a few images at a time, so a city of 100k events fills its
 * images over hours without starving requests. Claims skip locked rows, so instances share the work.
 */
export function createImageJob(o: ImageJobOptions) {
  const intervalMs = o.intervalMs ?? 2 * 60_000;
  const debounceMs = o.debounceMs ?? 1_500;
  const maxPerRound = o.maxPerRound ?? 200;
  let running: Promise<CacheSummary> | null = null;
  let again = false;
  let stopped = true;
  let soon: NodeJS.Timeout | null = null;
  let sweep: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;

  async function round(): Promise<CacheSummary> {
    const total = empty();
    for (let first = true; ; first = false) {
      // New events are linked to images kept before once per round, not per batch.
      const s = await o.images.cacheBatch({ batch: o.batch ?? 4, concurrency: o.concurrency ?? 2, link: first });
      total.queued += s.queued;
      total.linked += s.linked;
      total.ready += s.ready;
      total.failed += s.failed;
      const tried = s.ready + s.failed;
      if ((tried === 0 && s.queued === 0) || total.ready + total.failed >= maxPerRound) return total;
      // Let requests in between batches.
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Runs rounds until no work is left (or the round's cap is reached); a call during a round asks for one more. */
  function drain(): Promise<CacheSummary> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      const total = empty();
      do {
        again = false;
        const s = await round();
        total.queued += s.queued;
        total.linked += s.linked;
        total.ready += s.ready;
        total.failed += s.failed;
      } while (again && !stopped);
      if (total.ready || total.failed || total.linked) o.log.info({ ...total }, 'images cached');
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  function kick() {
    if (stopped || soon) return;
    soon = setTimeout(() => {
      soon = null;
      drain().catch((err: unknown) => o.log.error({ err }, 'image cache round failed'));
    }, debounceMs);
    soon.unref();
  }

  return {
    drain,
    kick,
    /** Starts listening for new events and the periodic sweep, with a first round soon. */
    start() {
      if (!stopped) return;
      stopped = false;
      unsubscribe =
        o.bus?.subscribe('event_update', (m) => {
          if (m.action === 'created' || m.action === 'updated' || m.action === 'approved') kick();
        }) ?? null;
      sweep = setInterval(kick, intervalMs);
      sweep.unref();
      kick();
    },
    /** Stops scheduling; waits a little for a round in progress (a slow fetch is not waited for). */
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (soon) clearTimeout(soon);
      if (sweep) clearInterval(sweep);
      soon = sweep = null;
      if (running) await Promise.race([running.catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
    },
  };
}

export type ImageJob = ReturnType<typeof createImageJob>;
