// A flyer photo arrives as base64 in JSON. Everything that can be checked without decoding the
// picture is checked here, cheapest first: the base64 itself, the decoded size (from the length),
// the type (magic bytes) and the size in pixels (from the header), so a hostile upload costs
// the server no decode and no OCR.
import sharp from 'sharp';
import { FLYER_MAX_BYTES, FLYER_MAX_PIXELS } from '../../../contract/scan.ts';
import { AppError, invalid } from '../../errors.ts';
import { sniffImageType } from '../images/image-files.ts';

export type FlyerImageType = 'jpeg' | 'png' | 'webp';
const ACCEPTED: readonly string[] = ['jpeg', 'png', 'webp'] satisfies FlyerImageType[];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
export const BASE64_MESSAGE = 'imageData must be base64 without the data-URL prefix';
export const TYPE_MESSAGE = 'imageData must be a JPEG, PNG or WebP image';
const tooLarge = () => new AppError(413, 'payload_too_large', `imageData must be at most ${FLYER_MAX_BYTES / 1024 / 1024} MB`);

/** The decoded size of base64 text (without whitespace), from its length alone. */
export const decodedLength = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

/**
 * Decodes and checks a flyer upload: 400 for text that is not plain base64 (a data-URL prefix
 * included), 413 above FLYER_MAX_BYTES decoded, 400 for anything but a JPEG, PNG or WebP by its
 * bytes, 400 above FLYER_MAX_PIXELS as its header states. Nothing is decoded into pixels.
 */
export async function readFlyerImage(imageData: string): Promise<{ bytes: Buffer; type: FlyerImageType; width: number; height: number }> {
  const b64 = imageData.replace(/\s+/g, '');
  if (!b64 || !BASE64.test(b64) || b64.length % 4 === 1) throw invalid(BASE64_MESSAGE);
  if (decodedLength(b64) > FLYER_MAX_BYTES) throw tooLarge();
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > FLYER_MAX_BYTES) throw tooLarge();
  const type = sniffImageType(bytes);
  if (!type || !ACCEPTED.includes(type)) throw invalid(TYPE_MESSAGE);
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header only: no pixels are decoded, whatever size the header claims.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (meta.format !== type) throw new Error(`${meta.format} inside`);
    width = meta.width;
    height = meta.height;
  } catch {
    throw invalid(`imageData is not a readable ${type.toUpperCase()} image`);
  }
  if (!width || !height) throw invalid(`imageData is not a readable ${type.toUpperCase()} image`);
  if (width * height > FLYER_MAX_PIXELS) throw invalid(`imageData is ${width}×${height} pixels; at most ${FLYER_MAX_PIXELS / 1e6} megapixels are read`);
  return { bytes, type: type as FlyerImageType, width, height };
}
