import { deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageRefused, MAX_IMAGE_BYTES, resizeImage, sniffImageType } from './image-files.ts';

/** A photo-like test picture: a gradient with a few shapes, as the given format. */
async function picture(width: number, height: number, format: 'jpeg' | 'png' | 'webp' | 'gif' | 'avif', extra: (s: Sharp) => Sharp = (s) => s) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c3aed"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#fff" fill-opacity="0.6"/></svg>`;
  return extra(sharp(Buffer.from(svg)).toFormat(format)).toBuffer();
}

const webpMagic = (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP';

/** A PNG that is only a signature and an IHDR chunk: it declares its size and holds no pixels. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  // One row of a real image data stream, far short of what the header promises.
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1 + width * 3))), chunk('IEND', Buffer.alloc(0))]);
}

describe('sniffImageType', () => {
  it('reads the type from the bytes, whatever the file is called', async () => {
    expect(sniffImageType(await picture(64, 64, 'jpeg'))).toBe('jpeg');
    expect(sniffImageType(await picture(64, 64, 'png'))).toBe('png');
    expect(sniffImageType(await picture(64, 64, 'webp'))).toBe('webp');
    expect(sniffImageType(await picture(64, 64, 'gif'))).toBe('gif');
    expect(sniffImageType(await picture(64, 64, 'avif'))).toBe('avif');
  });

  it('knows no SVG, HTML, TIFF, PDF or empty body', async () => {
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(sniffImageType(Buffer.from('<!doctype html><html><body>Not found</body></html>'))).toBeNull();
    expect(sniffImageType(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).tiff().toBuffer())).toBeNull();
    expect(sniffImageType(Buffer.from('%PDF-1.7\n'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('resizeImage', () => {
  it('keeps WebP copies at 320, 640, 960 and 1280 of a large photo, never wider', async () => {
    const out = await resizeImage(await picture(2000, 1125, 'jpeg'));
    expect(out).toMatchObject({ type: 'jpeg', width: 2000, height: 1125 });
    expect(out.variants.map((v) => [v.width, v.height])).toEqual([
      [320, 180],
      [640, 360],
      [960, 540],
      [1280, 720],
    ]);
    for (const v of out.variants) {
      expect(v.contentType).toBe('image/webp');
      expect(webpMagic(v.bytes)).toBe(true);
      expect((await sharp(v.bytes).metadata()).width).toBe(v.width);
    }
  });

  it('keeps a small picture at its own width, not enlarged', async () => {
    const out = await resizeImage(await picture(500, 300, 'png'));
    expect(out.variants.map((v) => v.width)).toEqual([320, 500]);
  });

  it('takes a PNG whatever its name or Content-Type claimed, and WebP, GIF and AVIF', async () => {
    // The bytes are all that is read: a PNG saved as "photo.jpg" is a PNG.
    expect((await resizeImage(await picture(400, 300, 'png'))).type).toBe('png');
    expect((await resizeImage(await picture(400, 300, 'webp'))).type).toBe('webp');
    expect((await resizeImage(await picture(400, 300, 'gif'))).type).toBe('gif');
    expect((await resizeImage(await picture(400, 300, 'avif'))).type).toBe('avif');
  });

  it('turns a photo upright by its EXIF orientation and strips its metadata', async () => {
    // Stored 400 x 200 with "rotate 90" (orientation 6), as phones write portrait photos.
    const photo = await picture(400, 200, 'jpeg', (s) => s.withExif({ IFD0: { Artist: 'Someone', Copyright: 'Someone' } }).withMetadata({ orientation: 6 }));
    const before = await sharp(photo).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.toString('latin1')).toContain('Someone');
    const out = await resizeImage(photo);
    expect([out.width, out.height]).toEqual([200, 400]);
    const copy = await sharp(out.variants.at(-1)!.bytes).metadata();
    expect([copy.width, copy.height]).toEqual([200, 400]);
    expect(copy.exif).toBeUndefined();
    expect(copy.orientation).toBeUndefined();
    expect(copy.icc).toBeUndefined();
  });

  it('refuses an SVG, naming it, without rendering it', async () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="900" height="600"><script>alert(1)</script></svg>');
    await expect(resizeImage(svg)).rejects.toThrow(new ImageRefused('not a JPEG, PNG, WebP, GIF or AVIF image (an SVG document)'));
  });

  it('refuses an HTML page (an error page served as the image)', async () => {
    await expect(resizeImage(Buffer.from('<!DOCTYPE html><html><head><title>404</title></head></html>'))).rejects.toThrow(/an HTML page/);
  });

  it('refuses a truncated JPEG', async () => {
    const photo = await picture(800, 600, 'jpeg');
    await expect(resizeImage(photo.subarray(0, Math.floor(photo.length / 2)))).rejects.toBeInstanceOf(ImageRefused);
  });

  it('refuses a 50-megapixel image from its header, before decoding it', async () => {
    // The header promises 10000 x 5000 pixels; the data would fail to decode, so the message shows it was never tried.
    const err = await resizeImage(pngHeaderOnly(10_000, 5_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageRefused);
    expect((err as Error).message).toBe('10000×5000 pixels is more than 40 megapixels');
  });

  it('refuses a body over 10 MB without reading it', async () => {
    const big = Buffer.alloc(12 * 1024 * 1024);
    big.set([0xff, 0xd8, 0xff]);
    expect(big.length).toBeGreaterThan(MAX_IMAGE_BYTES);
    await expect(resizeImage(big)).rejects.toThrow(new ImageRefused('larger than 10 MB'));
  });

  it('refuses a tracking pixel', async () => {
    const pixel = await sharp({ create: { width: 1, height: 1, channels: 4, background: '#0000' } }).gif().toBuffer();
    await expect(resizeImage(pixel)).rejects.toThrow('1×1 pixels is too small to show');
  });
});
