import { afterAll, describe, expect, it } from 'vitest';
import { createOcrPool, createTesseractEngine, OcrBusyError } from './ocr-pool.ts';
import { extractEvent } from './extract.ts';
import { renderPoster } from './test-poster.ts';

const lines = [
  { text: 'THE LANTERN PRESENTS', size: 34 },
  { text: 'WINTER JAZZ', size: 96, weight: 'bold' as const },
  { text: 'NIGHT', size: 96, weight: 'bold' as const },
  { text: 'SATURDAY DECEMBER 5', size: 48 },
  { text: 'DOORS 7PM', size: 44 },
  { text: 'The Lantern Room, 412 Alder St', size: 34 },
  { text: 'Tickets $15 at the door', size: 36 },
];
const ctx = { now: new Date('2026-11-24T23:00:00Z'), timeZone: 'America/Los_Angeles', venues: [{ name: 'The Lantern Room' }] };

describe('OCR pool (real tesseract, offline data)', { timeout: 60_000 }, () => {
  const pool = createOcrPool({ workers: 1, maxQueue: 1 });
  afterAll(() => pool.close());

  it('reads a rotated JPEG poster with a QR code, and the extractor finds title and start', async () => {
    const image = await renderPoster({ lines, rotate: 4, quality: 60, qr: 'https://lanternroom.com/jazz' });
    const r = await pool.read(image);
    expect(r.text).toContain('WINTER JAZZ');
    expect(r.text).toContain('NIGHT');
    expect(r.confidence).toBeGreaterThan(0.6);
    expect(r.qr).toBe('https://lanternroom.com/jazz');
    const e = extractEvent(r.text, ctx);
    expect(e.title).toBe('Winter Jazz Night');
    expect(e.start?.toISOString()).toBe('2026-12-06T03:00:00.000Z');
    expect(e.venueName).toBe('The Lantern Room');
    expect(e.price).toBe(15);
  });

  it('refuses reads past the bounded queue with OcrBusyError', async () => {
    const image = await renderPoster({ lines: lines.slice(0, 2), width: 400, height: 300 });
    const reads = Array.from({ length: 5 }, () => pool.read(image));
    const settled = await Promise.allSettled(reads);
    const busy = settled.filter((s) => s.status === 'rejected' && s.reason instanceof OcrBusyError);
    expect(busy.length).toBe(3);
    expect(settled.filter((s) => s.status === 'fulfilled').length).toBe(2);
    expect(pool.stats()).toEqual({ busy: 0, queued: 0 });
  });

  it('rejects an image that is not one, and goes on reading', async () => {
    await expect(pool.read(Buffer.from('not an image at all'))).rejects.toThrow(Error);
    const r = await pool.read(await renderPoster({ lines: lines.slice(1, 2), width: 700, height: 300 }));
    expect(r.text).toContain('WINTER JAZZ');
  });

  it('replaces a worker whose thread dies or whose recognizer fails, and the next read succeeds', async () => {
    let made = 0;
    const crashing = createOcrPool({
      createEngine: async () => {
        const real = await createTesseractEngine();
        made++;
        if (made === 1) {
          // Garbage straight to the recognizer: tesseract's own error path.
          return { recognize: () => real.recognize(Buffer.from('garbage bytes')), terminate: () => real.terminate() };
        }
        if (made === 2) {
          // The worker thread is killed mid-read.
          return {
            recognize: (png) => {
              const p = real.recognize(png);
              setTimeout(() => void real.terminate(), 50);
              return p;
            },
            terminate: () => real.terminate(),
          };
        }
        return real;
      },
    });
    const image = await renderPoster({ lines: lines.slice(1, 3), width: 700, height: 400 });
    await expect(crashing.read(image)).rejects.toThrow(Error);
    await expect(crashing.read(image)).rejects.toThrow(Error);
    const r = await crashing.read(image);
    expect(r.text).toContain('WINTER JAZZ');
    expect(made).toBe(3);
    await crashing.close();
  });

  it('terminates and replaces a worker that takes longer than the timeout', async () => {
    let made = 0;
    let terminated = 0;
    const slow = createOcrPool({
      timeoutMs: 300,
      createEngine: async () => {
        made++;
        const hang = made === 1;
        return {
          recognize: () => (hang ? new Promise<never>(() => {}) : Promise.resolve({ text: 'ok', confidence: 0.9 })),
          terminate: async () => {
            terminated++;
          },
        };
      },
    });
    const image = await renderPoster({ lines: lines.slice(1, 2), width: 400, height: 200 });
    await expect(slow.read(image)).rejects.toThrow(/timed out/);
    expect(terminated).toBe(1);
    await expect(slow.read(image)).resolves.toMatchObject({ text: 'ok', confidence: 0.9 });
    expect(made).toBe(2);
    await slow.close();
  });
});
