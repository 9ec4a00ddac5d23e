// Draws the flyer the /scanner page's 'Demo Scan' sends (public/assets/demo-flyer.jpg): a real
// poster that the server's OCR reads like any photo, marked "DEMO FLYER". Written here as SVG and
// rendered with sharp, like the demo event pictures (scripts/make-demo-images.ts).
//
//   node --import tsx scripts/make-demo-flyer.ts
//
// The date is weekday-relative ("This Saturday, 6 PM") so the flyer always names an upcoming
// day: the server reads dates relative to today, and no date is computed here or in the page.
// The venue is a park of the demo city's feeds (demo/feeds/pdx-parks-and-rec.csv).

import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const OUT = fileURLToPath(new URL('../public/assets/demo-flyer.jpg', import.meta.url));
const W = 1200;
const H = 1600;

/** The flyer's text, top to bottom (e2e/scanner.spec.ts expects the title). */
const DEMO_FLYER = {
  title: ['Winter Lantern', 'Walk'],
  when: 'This Saturday, 6 PM',
  venue: 'Tidewater Park',
  price: 'Free',
} as const;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function lantern(cx: number, cy: number, r: number, color: string) {
  return `<g>
    <line x1="${cx}" y1="${cy - r * 2.2}" x2="${cx}" y2="${cy - r}" stroke="#c9b98f" stroke-width="3"/>
    <circle cx="${cx}" cy="${cy}" r="${r * 1.9}" fill="${color}" fill-opacity="0.18"/>
    <ellipse cx="${cx}" cy="${cy}" rx="${r * 0.8}" ry="${r}" fill="${color}"/>
    <rect x="${cx - r * 0.35}" y="${cy - r * 1.1}" width="${r * 0.7}" height="${r * 0.22}" rx="3" fill="#3b2f1e"/>
    <rect x="${cx - r * 0.35}" y="${cy + r * 0.9}" width="${r * 0.7}" height="${r * 0.22}" rx="3" fill="#3b2f1e"/>
  </g>`;
}

function svg() {
  const font = 'DejaVu Sans';
  const text = (y: number, size: number, s: string, fill: string, weight = 'bold') =>
    `<text x="${W / 2}" y="${y}" font-family="${font}" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="middle">${esc(s)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0f1a3a"/><stop offset="1" stop-color="#1d2f5c"/>
    </linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  ${lantern(200, 260, 46, '#f59e0b')}${lantern(420, 200, 38, '#fb7185')}${lantern(780, 210, 40, '#facc15')}${lantern(1000, 270, 48, '#f97316')}
  <!-- A light panel behind the words: large dark type on a plain ground reads best. -->
  <rect x="70" y="420" width="${W - 140}" height="980" rx="28" fill="#fbf6ea"/>
  ${text(590, 108, DEMO_FLYER.title[0], '#1b1b1f')}
  ${text(730, 108, DEMO_FLYER.title[1], '#1b1b1f')}
  ${text(930, 68, DEMO_FLYER.when, '#7c2d12')}
  ${text(1060, 64, DEMO_FLYER.venue, '#1b1b1f')}
  ${text(1190, 80, DEMO_FLYER.price, '#15803d')}
  ${text(1310, 34, 'Bring a lantern, or borrow one at the gate', '#44403c', 'normal')}
  <rect x="${W / 2 - 170}" y="1468" width="340" height="64" rx="32" fill="none" stroke="#fbbf24" stroke-width="3"/>
  ${text(1512, 30, 'DEMO FLYER', '#fbbf24')}
</svg>`;
}

mkdirSync(dirname(OUT), { recursive: true });
const jpeg = await sharp(Buffer.from(svg())).resize({ width: W }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
writeFileSync(OUT, jpeg);
const meta = await sharp(jpeg).metadata();
console.log(`${OUT}: ${meta.width}x${meta.height}, ${(statSync(OUT).size / 1024).toFixed(1)} KB`);
