// QR codes on flyers, read with jsQR in a worker thread: jsQR is synchronous and takes a few
// hundred milliseconds on a photo without a code, which must not stall the request thread.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import sharp, { type Sharp } from 'sharp';
import { MAX_INPUT_PIXELS } from './preprocess.ts';

/** The longest side jsQR is given: codes on flyers are large, and jsQR's cost grows with pixels. */
const QR_LONG_SIDE = 1200;

export interface QrReader {
  /** The text of a QR code anywhere on the image, or null. */
  read(image: Buffer): Promise<string | null>;
  close(): Promise<void>;
}

// Plain CommonJS run with `eval`, so it needs no TypeScript loader inside the thread.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const jsQR = require(workerData.jsqr);
parentPort.on('message', ({ id, data, width, height, invert }) => {
  let text = null;
  try {
    const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width, height, { inversionAttempts: invert ? 'attemptBoth' : 'dontInvert' });
    text = code && code.data ? code.data : null;
  } catch {}
  parentPort.postMessage({ id, text });
});`;

const jsqrPath = createRequire(import.meta.url).resolve('jsqr');

/** A QR reader with one worker thread, started on first use and restarted if it dies. */
export function createQrReader(): QrReader {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve: (t: string | null) => void; reject: (e: Error) => void }>();

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker = null;
  };
  const thread = () => {
    if (worker) return worker;
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { jsqr: jsqrPath } });
    w.unref();
    w.on('message', ({ id, text }: { id: number; text: string | null }) => {
      pending.get(id)?.resolve(text);
      pending.delete(id);
    });
    w.on('error', (e) => failAll(e));
    w.on('exit', () => {
      if (worker === w) failAll(new Error('QR worker exited'));
    });
    worker = w;
    return w;
  };

  const decode = (data: Buffer, width: number, height: number, invert: boolean) =>
    new Promise<string | null>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      const copy = new Uint8Array(data);
      thread().postMessage({ id, data: copy, width, height, invert }, [copy.buffer]);
    });

  const pixels = async (pipeline: Sharp) => {
    const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  };

  return {
    async read(image) {
      const open = () => sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
      const meta = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      const size = Math.min(Math.max(meta.width ?? 0, meta.height ?? 0), QR_LONG_SIDE);
      const plain = await pixels(open().resize(size, size, { fit: 'inside' }));
      const first = await decode(plain.data, plain.width, plain.height, false);
      if (first) return first;
      // Noise (JPEG, paper texture) breaks the finder patterns: a median filter, then half size with inverted codes too.
      const smooth = await pixels(open().resize(size, size, { fit: 'inside' }).median(3));
      const second = await decode(smooth.data, smooth.width, smooth.height, false);
      if (second) return second;
      const half = Math.max(1, Math.round(size / 2));
      const small = await pixels(open().resize(half, half, { fit: 'inside' }));
      return decode(small.data, small.width, small.height, true);
    },
    async close() {
      const w = worker;
      worker = null;
      failAll(new Error('QR reader closed'));
      if (w) await w.terminate();
    },
  };
}
