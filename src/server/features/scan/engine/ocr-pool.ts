// A small pool of tesseract.js workers (each a worker thread, so recognition never blocks the
// request thread) behind a bounded queue. Everything is local: the language data comes from the
// installed @tesseract.js-data/eng package and nothing is cached to disk or fetched.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM } from 'tesseract.js';
import { prepareForOcr } from './preprocess.ts';
import { createQrReader } from './qr-reader.ts';

export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0..1. */
  confidence: number;
  /** The text of a QR code on the image, if one could be read. */
  qr: string | null;
  /** Wall-clock milliseconds from the start of the work on this image (not the wait in the queue). */
  ms: number;
}

export interface OcrPool {
  read(image: Buffer): Promise<OcrResult>;
  stats(): { busy: number; queued: number };
  close(): Promise<void>;
}

/** The queue is full: try again shortly (the route answers 503 with Retry-After). */
export class OcrBusyError extends Error {
  constructor(message = 'The flyer reader is busy') {
    super(message);
    this.name = 'OcrBusyError';
  }
}

/** One recogniser: a tesseract worker, or a stand-in in tests. */
export interface OcrEngine {
  recognize(png: Buffer): Promise<{ text: string; confidence: number }>;
  terminate(): Promise<void>;
}

export interface OcrPoolOptions {
  /** Recognising workers; each holds about 200 MB. Default 1 (a 2-core machine). */
  workers?: number;
  /** Reads that may wait for a worker; one more is refused with OcrBusyError. Default 8. */
  maxQueue?: number;
  /** Per image; past it the worker is terminated and replaced. Default 20 s. */
  timeoutMs?: number;
  /** Makes a recogniser; default a tesseract.js worker with the bundled English data. */
  createEngine?: () => Promise<OcrEngine>;
}

const require = createRequire(import.meta.url);
/** LSTM-only integer model (2.95 MB): reads flyers as well as the 10.9 MB default and loads faster. */
export const LANG_PATH = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** A tesseract.js worker set up for flyers, which rejects (never throws uncaught) when its thread fails. */
export async function createTesseractEngine(): Promise<OcrEngine> {
  let fail: (err: Error) => void = () => {};
  let dead: Error | null = null;
  const died = (err: Error) => {
    dead ??= err;
    fail(err);
  };
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: LANG_PATH,
    gzip: true,
    cacheMethod: 'none',
    // The job's own promise rejects too; without a handler tesseract.js throws from its message listener.
    errorHandler: () => {},
  });
  // tesseract.js sets `onerror`, which a Node worker thread never calls: listen for real.
  const thread = (worker as unknown as { worker?: { on(ev: string, fn: (x: unknown) => void): void } }).worker;
  thread?.on('error', (e) => died(e instanceof Error ? e : new Error(String(e))));
  thread?.on('exit', (code) => died(new Error(`OCR worker exited (${String(code)})`)));
  await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, user_defined_dpi: '300' });
  return {
    async recognize(png) {
      if (dead) throw dead;
      const crashed = new Promise<never>((_, reject) => {
        fail = reject;
      });
      try {
        const { data } = await Promise.race([worker.recognize(png, { rotateAuto: true }), crashed]);
        return { text: data.text, confidence: Math.max(0, Math.min(1, data.confidence / 100)) };
      } catch (err) {
        throw err instanceof Error ? err : new Error(`OCR failed: ${String(err)}`);
      } finally {
        fail = () => {};
      }
    },
    async terminate() {
      dead ??= new Error('OCR worker terminated');
      await worker.terminate();
    },
  };
}

interface Job {
  image: Buffer;
  resolve: (r: OcrResult) => void;
  reject: (e: Error) => void;
}

/** A bounded pool of OCR workers, started on first use and replaced when one fails. */
export function createOcrPool(opts: OcrPoolOptions = {}): OcrPool {
  const size = Math.max(1, opts.workers ?? 1);
  const maxQueue = Math.max(0, opts.maxQueue ?? 8);
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const makeEngine = opts.createEngine ?? createTesseractEngine;
  const idle: OcrEngine[] = [];
  const queue: Job[] = [];
  const live = new Set<OcrEngine>();
  const qrReader = createQrReader();
  let busy = 0;
  let closed = false;

  const discard = (engine: OcrEngine) => {
    live.delete(engine);
    engine.terminate().catch(() => {});
  };

  async function run(job: Job): Promise<void> {
    const started = performance.now();
    let engine: OcrEngine | undefined;
    try {
      // Pre-processing (sharp, in libuv's pool) and the QR code (jsQR, in its own thread) before taking a worker.
      const [prepared, qr] = await Promise.all([prepareForOcr(job.image), qrReader.read(job.image).catch(() => null)]);
      engine = idle.pop() ?? (await makeEngine());
      live.add(engine);
      if (closed) throw new Error('OCR pool closed');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`OCR timed out after ${timeoutMs} ms`)), timeoutMs);
      });
      let out: { text: string; confidence: number };
      try {
        out = await Promise.race([engine.recognize(prepared.png), timeout]);
      } catch (err) {
        // A worker that failed or hung may be in any state: never reuse it.
        discard(engine);
        engine = undefined;
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (closed) discard(engine);
      else idle.push(engine);
      engine = undefined;
      job.resolve({ text: out.text, confidence: out.confidence, qr, ms: Math.round(performance.now() - started) });
    } catch (err) {
      if (engine) idle.push(engine);
      job.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  function pump() {
    while (busy < size && queue.length > 0 && !closed) {
      const job = queue.shift()!;
      busy++;
      void run(job).finally(() => {
        busy--;
        pump();
      });
    }
  }

  return {
    read(image) {
      if (closed) return Promise.reject(new Error('OCR pool closed'));
      if (busy >= size && queue.length >= maxQueue) return Promise.reject(new OcrBusyError());
      return new Promise<OcrResult>((resolve, reject) => {
        queue.push({ image, resolve, reject });
        pump();
      });
    },
    stats: () => ({ busy, queued: queue.length }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('OCR pool closed'));
      idle.length = 0;
      await Promise.all([...[...live].map((e) => e.terminate().catch(() => {})), qrReader.close()]);
      live.clear();
    },
  };
}
