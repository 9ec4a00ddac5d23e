import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEventBus } from '../../lib/event-bus.ts';
import { createImageJob, type ImageJob } from './images.job.ts';
import type { CacheSummary } from './images.service.ts';

const log = { info: () => {}, error: () => {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stand-in image cache with `waiting` images to fetch, four per batch. */
function fakeImages(waiting: number) {
  const calls: { batch?: number; link?: boolean }[] = [];
  let running = 0;
  let overlapped = false;
  return {
    calls,
    get overlapped() {
      return overlapped;
    },
    add: (n: number) => {
      waiting += n;
    },
    async cacheBatch(o: { batch?: number; link?: boolean } = {}): Promise<CacheSummary> {
      calls.push(o);
      if (++running > 1) overlapped = true;
      await sleep(2);
      running -= 1;
      const ready = Math.min(o.batch ?? 4, waiting);
      waiting -= ready;
      return { queued: 0, linked: 0, ready, failed: 0 };
    },
  };
}

let job: ImageJob | undefined;
afterEach(async () => job?.stop());

describe('the image job', () => {
  it('works through the waiting images batch by batch, linking new events once per round', async () => {
    const images = fakeImages(10);
    job = createImageJob({ images, log, batch: 4 });
    expect(await job.drain()).toEqual({ queued: 0, linked: 0, ready: 10, failed: 0 });
    expect(images.calls.map((c) => c.link)).toEqual([true, false, false, false]);
  });

  it('stops a round at its cap; the next round goes on', async () => {
    const images = fakeImages(30);
    job = createImageJob({ images, log, batch: 4, maxPerRound: 8 });
    expect((await job.drain()).ready).toBe(8);
    expect((await job.drain()).ready).toBe(8);
  });

  it('runs one round at a time: a call during a round asks for one more after it', async () => {
    const images = fakeImages(4);
    job = createImageJob({ images, log, batch: 4 });
    const first = job.drain();
    images.add(4);
    const second = job.drain();
    expect(second).toBe(first);
    expect((await first).ready).toBe(8);
    expect(images.overlapped).toBe(false);
  });

  it('does nothing until started; then a burst of new events starts one round, soon', async () => {
    const images = fakeImages(0);
    const bus = createEventBus();
    job = createImageJob({ images, log, bus, debounceMs: 20, intervalMs: 60_000 });
    bus.publish('event_update', { id: 'a', action: 'created' });
    await sleep(50);
    expect(images.calls).toHaveLength(0);

    job.start();
    // A first round soon after start.
    await vi.waitFor(() => expect(images.calls.length).toBeGreaterThan(0), { timeout: 5_000 });
    const afterStart = images.calls.length;
    images.add(3);
    for (let i = 0; i < 20; i++) bus.publish('event_update', { id: String(i), action: 'created' });
    bus.publish('event_update', { id: 'x', action: 'removed' });
    // One round for the burst: a batch that took the three images, then one that found nothing.
    await vi.waitFor(() => expect(images.calls.length - afterStart).toBe(2), { timeout: 5_000 });
    await sleep(100);
    expect(images.calls.length - afterStart).toBe(2);

    await job.stop();
    bus.publish('event_update', { id: 'b', action: 'created' });
    await sleep(100);
    expect(images.calls.length - afterStart).toBe(2);
  });
});
