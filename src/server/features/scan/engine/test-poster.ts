// Test helper: renders a flyer the way a phone photo of one looks (rotated, JPEG q60), so the
// OCR tests run the real engine on a known text. Not imported by server code.
import QRCode from 'qrcode';
import sharp from 'sharp';

export interface PosterSpec {
  lines: { text: string; size: number; weight?: 'bold' | 'normal'; font?: string }[];
  width?: number;
  height?: number;
  /** Degrees, clockwise. */
  rotate?: number;
  /** Text of a QR code composited at the bottom right. */
  qr?: string;
  dark?: boolean;
  quality?: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A JPEG of a flyer with the given lines centred top to bottom. */
export async function renderPoster(spec: PosterSpec): Promise<Buffer> {
  const width = spec.width ?? 900;
  const height = spec.height ?? 1200;
  const fg = spec.dark ? '#f4f1e8' : '#1d1d1f';
  const bg = spec.dark ? '#1b2340' : '#f7f3ea';
  let y = 60;
  const texts = spec.lines.map((l) => {
    y += l.size;
    const t = `<text x="${width / 2}" y="${y}" font-family="${l.font ?? 'DejaVu Sans'}" font-size="${l.size}" font-weight="${l.weight ?? 'normal'}" fill="${fg}" text-anchor="middle">${esc(l.text)}</text>`;
    y += Math.round(l.size * 0.6);
    return t;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${bg}"/>${texts.join('')}</svg>`;
  let img = sharp(Buffer.from(svg));
  if (spec.qr) {
    const qr = await QRCode.toBuffer(spec.qr, { width: 220, margin: 2 });
    img = sharp(await img.png().toBuffer()).composite([{ input: qr, left: width - 260, top: height - 260 }]);
  }
  let png = await img.png().toBuffer();
  if (spec.rotate) png = await sharp(png).rotate(spec.rotate, { background: '#808080' }).png().toBuffer();
  return sharp(png).jpeg({ quality: spec.quality ?? 60 }).toBuffer();
}
