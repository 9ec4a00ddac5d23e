// Image preparation before OCR and QR reading: sharp only, no I/O. Photos of flyers come in any
// size, orientation and contrast; tesseract reads best from large, upright, grey, high-contrast
// text.
import sharp from 'sharp';

/** Inputs above this many pixels are refused by sharp before decoding (decompression bombs). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** The longer side of the image handed to tesseract: text of a flyer ends up 30 to 150 px tall. */
export const OCR_LONG_SIDE = 2000;
/** Skew is searched within plus or minus this many degrees. */
export const MAX_SKEW_DEG = 10;
/** The thumbnail the skew is estimated on. */
const SKEW_THUMB = 600;

const open = (image: Buffer) => sharp(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();

/**
 * Estimates the skew of text lines in a grey image, in degrees (positive: the text runs
 * down to the right, so the image needs rotating counter-clockwise by that much).
 * Projection profiles: the ink of a binarised thumbnail projected onto rows of an image
 * rotated by each candidate angle; text lines make the row counts peaky, so the angle with
 * the largest variance of the profile is the one that levels them. Whole degrees over
 * -10..10, then tenths of a degree around the best.
 */
export function estimateSkew(grey: Uint8Array, width: number, height: number): number {
  // Otsu's threshold; ink is the minority class (dark text on paper, or light text on a dark poster).
  const hist = new Array<number>(256).fill(0);
  for (const v of grey) hist[v]!++;
  let total = 0;
  for (let i = 0; i < 256; i++) total += i * hist[i]!;
  let wB = 0;
  let sumB = 0;
  let threshold = 128;
  let bestVar = -1;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = grey.length - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const between = wB * wF * (sumB / wB - (total - sumB) / wF) ** 2;
    if (between > bestVar) [bestVar, threshold] = [between, t];
  }
  let dark = 0;
  for (const v of grey) if (v <= threshold) dark++;
  const inkIsDark = dark <= grey.length / 2;
  const ink = (i: number) => (inkIsDark ? grey[i]! <= threshold : grey[i]! > threshold);
  // Only the outline of ink counts: large solid areas (a photo's background, a dark band) would
  // otherwise outweigh the text lines; outlines of letters still line up along their rows.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (ink(i) && !(ink(i - 1) && ink(i + 1) && ink(i - width) && ink(i + width))) {
        xs.push(x - width / 2);
        ys.push(y - height / 2);
      }
    }
  }
  if (xs.length < 50) return 0;
  const span = Math.ceil(Math.hypot(width, height)) + 2;
  const rows = new Float64Array(span);
  const score = (deg: number) => {
    const a = (deg * Math.PI) / 180;
    const sin = Math.sin(a);
    const cos = Math.cos(a);
    rows.fill(0);
    for (let i = 0; i < xs.length; i++) rows[Math.round(ys[i]! * cos - xs[i]! * sin + span / 2)]! += 1;
    let sq = 0;
    for (const r of rows) sq += r * r;
    return sq;
  };
  let best = 0;
  let bestScore = score(0);
  for (let d = -MAX_SKEW_DEG; d <= MAX_SKEW_DEG; d++) {
    const s = score(d);
    if (s > bestScore * 1.0001) [best, bestScore] = [d, s];
  }
  const coarse = best;
  for (let d = coarse - 0.9; d <= coarse + 0.9001; d += 0.1) {
    const s = score(d);
    if (s > bestScore) [best, bestScore] = [Math.round(d * 10) / 10, s];
  }
  return best;
}

export interface Prepared {
  /** A PNG of the upright, grey, contrast-stretched image, about OCR_LONG_SIDE on its longer side. */
  png: Buffer;
  /** The skew that was removed, in degrees. */
  skew: number;
  width: number;
  height: number;
}

/** Makes a photo or scan of a flyer ready for tesseract: upright (EXIF and skew), grey, normalised, resized. */
export async function prepareForOcr(image: Buffer, opts: { median?: boolean; deskew?: boolean } = {}): Promise<Prepared> {
  let pipeline = open(image).greyscale().normalise().resize(OCR_LONG_SIDE, OCR_LONG_SIDE, { fit: 'inside', kernel: 'lanczos3' });
  if (opts.median) pipeline = pipeline.median(3);
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  let skew = 0;
  if (opts.deskew !== false) {
    const thumb = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
      .resize(SKEW_THUMB, SKEW_THUMB, { fit: 'inside' })
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    skew = estimateSkew(thumb.data, thumb.info.width, thumb.info.height);
  }
  let out = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } });
  // Under half a degree tesseract copes, and a rotation would only blur the glyphs.
  if (Math.abs(skew) >= 0.5) out = out.rotate(-skew, { background: { r: 255, g: 255, b: 255 } });
  const { data: png, info: outInfo } = await out.greyscale().png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
  return { png, skew, width: outInfo.width, height: outInfo.height };
}
