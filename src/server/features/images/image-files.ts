// Untrusted image bytes in, resized WebP copies out. The type is read from the bytes (a server's
// Content-Type and a file name's extension say nothing), only raster formats browsers show are
// taken, and the size in pixels is checked from the header before anything is decoded.

import sharp, { type Metadata, type OutputInfo, type SharpOptions } from 'sharp';
import { keptWidths } from './image-urls.ts';

/** The most a source's image may weigh: the guarded fetch's own cap. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The most pixels an image may have (a 40-megapixel photo decodes to 160 MB). */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Smaller than this on either side is a tracking pixel or an icon, not a picture of the event. */
export const MIN_IMAGE_SIDE = 48;
export const VARIANT_CONTENT_TYPE = 'image/webp';
const WEBP_QUALITY = 78;

export type ImageType = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/** The content is not an image we keep: trying again will not change that. */
export class ImageRefused extends Error {}

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** ISO-BMFF brands of the file's `ftyp` box (major and compatible), or [] when it has none. */
function ftypBrands(b: Uint8Array): string[] {
  if (b.length < 16 || ascii(b, 4, 8) !== 'ftyp') return [];
  const size = Math.min(((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0, b.length, 256);
  const brands = [ascii(b, 8, 12)];
  for (let i = 16; i + 4 <= size; i += 4) brands.push(ascii(b, i, i + 4));
  return brands;
}

/** The raster type the first bytes show (magic numbers), or null for anything else. */
export function sniffImageType(b: Uint8Array): ImageType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 8) === 'PNG\r\n\x1a\n') return 'png';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  const brands = ftypBrands(b);
  if (brands.includes('avif') || brands.includes('avis')) return 'avif';
  return null;
}

/** What the bytes look like instead, for the error a source's admin reads. */
function describeOther(b: Uint8Array): string {
  const head = Buffer.from(b.subarray(0, 1024)).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  if (!b.length) return 'an empty body';
  if (head.startsWith('<')) {
    if (/<svg[\s>]/i.test(head)) return 'an SVG document';
    if (/<(!doctype\s+html|html|head|body)[\s>]/i.test(head)) return 'an HTML page';
    return 'an XML document';
  }
  if (head.startsWith('%PDF')) return 'a PDF';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'a TIFF image';
  if (head.startsWith('BM')) return 'a BMP image';
  if (ftypBrands(b).some((x) => /^(heic|heix|hevc|mif1|msf1)$/.test(x))) return 'a HEIC image';
  return 'an unknown kind of file';
}

const sharpOptions: SharpOptions = { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true };

export interface ResizedImage {
  type: ImageType;
  /** The picture's size as shown (after its EXIF orientation is applied). */
  width: number;
  height: number;
  variants: { width: number; height: number; contentType: string; bytes: Buffer }[];
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);

/**
 * Checks that the bytes are a JPEG, PNG, WebP, GIF or AVIF of at most 10 MB and 40 megapixels
 * (from the header, before decoding), then writes WebP copies at the kept widths: turned upright,
 * in sRGB, without metadata (EXIF, GPS, ICC), the first frame of an animation.
 */
export async function resizeImage(bytes: Buffer): Promise<ResizedImage> {
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImageRefused(`larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  const type = sniffImageType(bytes);
  if (!type) throw new ImageRefused(`not a JPEG, PNG, WebP, GIF or AVIF image (${describeOther(bytes)})`);

  let meta: Metadata;
  try {
    // The header alone (no pixels are decoded), so an oversized image is named as such below;
    // the decode further down keeps limitInputPixels as a second guard.
    meta = await sharp(bytes, { ...sharpOptions, limitInputPixels: false }).metadata();
  } catch (err) {
    throw new ImageRefused(`unreadable ${type.toUpperCase()}: ${reason(err)}`);
  }
  // The decoder sharp picks must agree with the bytes (an AVIF is a HEIF holding AV1).
  const agrees = type === 'avif' ? meta.format === 'heif' && meta.compression === 'av1' : meta.format === type;
  if (!agrees) throw new ImageRefused(`not a ${type.toUpperCase()} image after all (${meta.format})`);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new ImageRefused(`unreadable ${type.toUpperCase()}: no size`);
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageRefused(`${width}×${height} pixels is more than ${MAX_IMAGE_PIXELS / 1e6} megapixels`);
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) throw new ImageRefused(`${width}×${height} pixels is too small to show`);

  const widths = keptWidths(width);
  const largest = Math.max(...widths);
  let raw: { data: Buffer; info: OutputInfo };
  try {
    // Decoded once, at the largest kept width (JPEG and WebP shrink while loading); the rest come from that.
    raw = await sharp(bytes, sharpOptions).autoOrient().resize({ width: largest, withoutEnlargement: true }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw new ImageRefused(`could not decode the ${type.toUpperCase()}: ${reason(err)}`);
  }
  const { info } = raw;
  const variants: ResizedImage['variants'] = [];
  for (const w of widths) {
    const pipeline = sharp(raw.data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    if (w < info.width) pipeline.resize({ width: w });
    const out = await pipeline.webp({ quality: WEBP_QUALITY, effort: 2 }).toBuffer({ resolveWithObject: true });
    variants.push({ width: w, height: out.info.height, contentType: VARIANT_CONTENT_TYPE, bytes: out.data });
  }
  return { type, width, height, variants };
}
