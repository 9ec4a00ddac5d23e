// Draws the demo city's event pictures (demo/images/): simple, category-coloured illustrations
// written here as SVG and rendered with sharp, each marked "Demo image". They are invented
// Townbeat demo content, like the demo feeds that name them.
//
//   node --import tsx scripts/make-demo-images.ts [--sheet /tmp/sheet.png]
//
// The output is deterministic for a given sharp version; re-run it after changing a scene.

import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { seededRandom } from '../src/server/lib/random.ts';

const W = 1280;
const H = 720;
const OUT = fileURLToPath(new URL('../demo/images/', import.meta.url));

/** The web's category colours (src/web/styles.css), and a second colour for each gradient. */
const C = {
  music: ['#7c3aed', '#db2777'],
  arts: ['#db2777', '#f59e0b'],
  tech: ['#0891b2', '#1e3a8a'],
  business: ['#2563eb', '#0f172a'],
  food: ['#ea580c', '#facc15'],
  wellness: ['#0d9488', '#a7f3d0'],
  other: ['#6b7280', '#16a34a'],
} as const;
type Palette = readonly [string, string];

/** A small seeded generator, so every run draws the same pictures. */
const random = seededRandom;

const seedOf = (name: string) => [...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);

/** Background: a diagonal gradient, a glow, soft circles, a vignette. */
function backdrop(name: string, [a, b]: Palette, opts: { glow?: [number, number]; dark?: boolean } = {}) {
  const rnd = random(seedOf(name));
  const [gx, gy] = opts.glow ?? [W * 0.7, H * 0.3];
  const bokeh = Array.from({ length: 14 }, () => {
    const r = 20 + rnd() * 90;
    return `<circle cx="${(rnd() * W).toFixed(0)}" cy="${(rnd() * H).toFixed(0)}" r="${r.toFixed(0)}" fill="#fff" fill-opacity="${(0.04 + rnd() * 0.08).toFixed(2)}"/>`;
  }).join('');
  return `<defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>
    <radialGradient id="glow" cx="${gx}" cy="${gy}" r="520" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#fff" stop-opacity="0.45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
    <radialGradient id="vignette" cx="640" cy="360" r="820" gradientUnits="userSpaceOnUse"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${opts.dark ? 0.55 : 0.35}"/></radialGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#bg)"/>
  ${opts.dark ? `<rect width="${W}" height="${H}" fill="#0b1020" fill-opacity="0.45"/>` : ''}
  <rect width="${W}" height="${H}" fill="url(#glow)"/>${bokeh}`;
}

/** The mark every demo picture carries. */
const BADGE = `<rect width="${W}" height="${H}" fill="url(#vignette)"/>
  <g transform="translate(${W - 192} ${H - 62})"><rect width="168" height="40" rx="20" fill="#000" fill-opacity="0.55"/>
  <text x="84" y="27" text-anchor="middle" textLength="132" lengthAdjust="spacingAndGlyphs" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="20" font-weight="bold" fill="#fff">Demo image</text></g>`;

const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}${BADGE}</svg>`;

// ---------------------------------------------------------------------------------------------
// Motifs

const note = (x: number, y: number, s = 1, fill = '#fff') =>
  `<g transform="translate(${x} ${y}) scale(${s})" fill="${fill}"><ellipse cx="0" cy="0" rx="16" ry="11" transform="rotate(-22)"/><rect x="12" y="-74" width="5" height="74"/><path d="M17 -74 q28 14 22 44 q-6 -18 -22 -22z"/></g>`;

const spotlight = (x: number, spread: number, opacity = 0.18) =>
  `<polygon points="${x - 18},0 ${x + 18},0 ${x + spread},${H} ${x - spread},${H}" fill="#fff" fill-opacity="${opacity}"/>`;

function pianoKeys(y: number) {
  const keys: string[] = [];
  for (let i = 0; i * 58 < W + 58; i++) keys.push(`<rect x="${i * 58}" y="${y}" width="56" height="${H - y}" rx="4" fill="#fdfcf7"/>`);
  for (let i = 0; i * 58 < W; i++) if (![2, 6].includes(i % 7)) keys.push(`<rect x="${i * 58 + 40}" y="${y}" width="34" height="${(H - y) * 0.6}" rx="3" fill="#111827"/>`);
  return keys.join('');
}

function crowd(y: number, color = '#0b1020', seed = 7) {
  const rnd = random(seed);
  const out: string[] = [];
  for (let x = -20; x < W + 40; x += 52 + rnd() * 20) {
    const h = y + rnd() * 30;
    out.push(`<circle cx="${x}" cy="${h}" r="${24 + rnd() * 6}" fill="${color}"/><rect x="${x - 38}" y="${h + 20}" width="76" height="${H - h}" rx="34" fill="${color}"/>`);
    if (rnd() > 0.75) out.push(`<rect x="${x + 14}" y="${h - 90}" width="14" height="80" rx="7" fill="${color}" transform="rotate(15 ${x} ${h})"/>`);
  }
  return out.join('');
}

const microphone = (x: number, y: number) => `<g transform="translate(${x} ${y})">
  <rect x="-6" y="120" width="12" height="330" fill="#111827"/><ellipse cx="0" cy="455" rx="90" ry="16" fill="#111827"/>
  <rect x="-22" y="60" width="44" height="90" rx="14" fill="#1f2937"/>
  <rect x="-52" y="-60" width="104" height="150" rx="52" fill="#e5e7eb"/>
  ${[-30, -5, 20, 45].map((dy) => `<line x1="-50" y1="${dy}" x2="50" y2="${dy}" stroke="#9ca3af" stroke-width="5"/>`).join('')}
  <rect x="-56" y="70" width="112" height="18" rx="9" fill="#9ca3af"/></g>`;

function record(x: number, y: number, r: number, label: string) {
  const grooves = Array.from({ length: 9 }, (_, i) => `<circle cx="${x}" cy="${y}" r="${r * 0.42 + i * r * 0.06}" fill="none" stroke="#fff" stroke-opacity="0.07" stroke-width="3"/>`).join('');
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="#0f0f14"/>${grooves}
    <path d="M${x - r * 0.8} ${y - r * 0.3} A${r * 0.85} ${r * 0.85} 0 0 1 ${x - r * 0.1} ${y - r * 0.84}" fill="none" stroke="#fff" stroke-opacity="0.25" stroke-width="10" stroke-linecap="round"/>
    <circle cx="${x}" cy="${y}" r="${r * 0.3}" fill="${label}"/><circle cx="${x}" cy="${y}" r="10" fill="#0f0f14"/>`;
}

const frame = (x: number, y: number, w: number, h: number, art: string) =>
  `<g transform="translate(${x} ${y})"><rect x="-14" y="-14" width="${w + 28}" height="${h + 28}" fill="#3f2a1d"/><rect width="${w}" height="${h}" fill="#fbf7ef"/>
  <svg width="${w}" height="${h}" viewBox="0 0 100 100" preserveAspectRatio="none">${art}</svg></g>`;

function curtains() {
  const folds = (x0: number, dir: 1 | -1) =>
    Array.from({ length: 5 }, (_, i) => {
      const x = x0 + dir * i * 56;
      return `<path d="M${x} 0 L${x + dir * 56} 0 L${x + dir * (56 + i * 12)} ${H} L${x + dir * i * 12} ${H} Z" fill="${i % 2 ? '#9f1239' : '#be123c'}"/>`;
    }).join('');
  return `${folds(0, 1)}${folds(W, -1)}<path d="M0 0 H${W} V70 Q${W * 0.75} 130 ${W / 2} 80 Q${W * 0.25} 130 0 70Z" fill="#881337"/>`;
}

function filmStrip() {
  const holes = Array.from({ length: 16 }, (_, i) => `<rect x="${i * 100 + 20}" y="14" width="50" height="30" rx="6" fill="#fde68a" fill-opacity="0.85"/><rect x="${i * 100 + 20}" y="186" width="50" height="30" rx="6" fill="#fde68a" fill-opacity="0.85"/>`).join('');
  const frames = Array.from({ length: 8 }, (_, i) => `<rect x="${i * 200 + 16}" y="60" width="180" height="110" rx="6" fill="#fff" fill-opacity="${0.12 + (i % 3) * 0.08}"/>`).join('');
  return `<g transform="translate(-160 470) rotate(-12)"><rect width="1700" height="230" fill="#111827"/>${holes}${frames}</g>`;
}

const pot = (x: number, y: number, w: number, h: number, fill: string) =>
  `<path d="M${x - w * 0.3} ${y} Q${x - w * 0.62} ${y + h * 0.45} ${x - w * 0.36} ${y + h} H${x + w * 0.36} Q${x + w * 0.62} ${y + h * 0.45} ${x + w * 0.3} ${y} Z" fill="${fill}"/>
  <rect x="${x - w * 0.34}" y="${y - 14}" width="${w * 0.68}" height="18" rx="8" fill="${fill}"/><path d="M${x - w * 0.42} ${y + h * 0.45} H${x + w * 0.42}" stroke="#fff" stroke-opacity="0.35" stroke-width="8"/>`;

function tents(y: number, stripes: [string, string], seed = 3) {
  const rnd = random(seed);
  const out: string[] = [];
  for (let i = 0; i < 5; i++) {
    const x = 40 + i * 250;
    const w = 220;
    const roof = Array.from({ length: 6 }, (_, k) => `<rect x="${x + (k * w) / 6}" y="${y}" width="${w / 6}" height="60" fill="${k % 2 ? stripes[0] : stripes[1]}"/>`).join('');
    const scallops = Array.from({ length: 6 }, (_, k) => `<circle cx="${x + (k + 0.5) * (w / 6)}" cy="${y + 60}" r="${w / 12}" fill="${k % 2 ? stripes[0] : stripes[1]}"/>`).join('');
    const goods = Array.from({ length: 5 }, (_, k) => `<circle cx="${x + 30 + k * 40}" cy="${y + 190}" r="${14 + rnd() * 8}" fill="${['#16a34a', '#dc2626', '#f59e0b', '#7c3aed', '#fde68a'][(k + i) % 5]}"/>`).join('');
    out.push(`<rect x="${x + 8}" y="${y + 60}" width="8" height="200" fill="#3f2a1d"/><rect x="${x + w - 16}" y="${y + 60}" width="8" height="200" fill="#3f2a1d"/>${roof}${scallops}
      <rect x="${x}" y="${y + 200}" width="${w}" height="70" rx="6" fill="#7c4a2d"/>${goods}`);
  }
  return out.join('');
}

const stringLights = (y: number) => {
  const bulbs = Array.from({ length: 24 }, (_, i) => {
    const x = i * 56 + 10;
    const dy = y + Math.sin((i / 23) * Math.PI * 3) * 30 + 30;
    return `<circle cx="${x}" cy="${dy}" r="26" fill="#fde68a" fill-opacity="0.25"/><circle cx="${x}" cy="${dy}" r="10" fill="#fef3c7"/>`;
  }).join('');
  return `<path d="M0 ${y + 30} ${Array.from({ length: 25 }, (_, i) => `L${i * 56 + 10} ${y + Math.sin((i / 23) * Math.PI * 3) * 30 + 30}`).join(' ')}" fill="none" stroke="#1f2937" stroke-width="3"/>${bulbs}`;
};

const glass = (x: number, y: number, fill: string) =>
  `<g transform="translate(${x} ${y})"><path d="M-60 0 H60 L50 240 Q48 260 28 260 H-28 Q-48 260 -50 240 Z" fill="${fill}" fill-opacity="0.92"/>
  <path d="M-60 0 H60 L56 60 H-56Z" fill="#fff" fill-opacity="0.15"/>
  <circle cx="-36" cy="-6" r="30" fill="#fffbeb"/><circle cx="0" cy="-18" r="36" fill="#fffbeb"/><circle cx="36" cy="-6" r="30" fill="#fffbeb"/>
  <path d="M-34 30 V220" stroke="#fff" stroke-opacity="0.3" stroke-width="10" stroke-linecap="round"/><path d="M60 40 q60 10 50 80 q-8 50 -58 50" fill="none" stroke="${fill}" stroke-width="18"/></g>`;

const wineGlass = (x: number, y: number, tilt: number) =>
  `<g transform="translate(${x} ${y}) rotate(${tilt})"><path d="M-70 0 H70 Q80 140 0 170 Q-80 140 -70 0Z" fill="#fff" fill-opacity="0.25"/>
  <path d="M-76 70 H76 Q70 150 0 170 Q-70 150 -76 70Z" fill="#7f1d1d"/><rect x="-7" y="168" width="14" height="150" fill="#fff" fill-opacity="0.7"/><ellipse cx="0" cy="320" rx="70" ry="14" fill="#fff" fill-opacity="0.7"/></g>`;

const steam = (x: number, y: number) =>
  [0, 1, 2].map((i) => `<path d="M${x + i * 60 - 60} ${y} q-30 -50 0 -100 q30 -50 0 -100" fill="none" stroke="#fff" stroke-opacity="0.55" stroke-width="14" stroke-linecap="round"/>`).join('');

const cup = (x: number, y: number, body: string) =>
  `<g transform="translate(${x} ${y})"><ellipse cx="0" cy="250" rx="230" ry="34" fill="#fff" fill-opacity="0.85"/>
  <path d="M-170 0 H170 Q170 230 0 240 Q-170 230 -170 0Z" fill="${body}"/><path d="M160 50 q90 0 80 70 q-10 60 -100 60" fill="none" stroke="${body}" stroke-width="28"/>
  <ellipse cx="0" cy="0" rx="170" ry="30" fill="#3b1f12"/><ellipse cx="0" cy="-2" rx="150" ry="22" fill="#6b3a1f"/></g>`;

function circuit(seed = 11) {
  const rnd = random(seed);
  const out: string[] = [];
  for (let i = 0; i < 22; i++) {
    const x = rnd() * W;
    const y = rnd() * H;
    const dx = (rnd() > 0.5 ? 1 : -1) * (80 + rnd() * 200);
    const dy = (rnd() > 0.5 ? 1 : -1) * (60 + rnd() * 120);
    out.push(`<path d="M${x} ${y} h${dx} l${dy * 0.6} ${dy} h${dx * 0.5}" fill="none" stroke="#a5f3fc" stroke-opacity="0.55" stroke-width="6"/><circle cx="${x}" cy="${y}" r="11" fill="#ecfeff"/><circle cx="${x + dx * 1.5 + dy * 0.6}" cy="${y + dy}" r="11" fill="#ecfeff"/>`);
  }
  const pins = Array.from({ length: 8 }, (_, i) => `<rect x="${500 + i * 36}" y="228" width="14" height="34" fill="#cbd5e1"/><rect x="${500 + i * 36}" y="478" width="14" height="34" fill="#cbd5e1"/>`).join('');
  return `${out.join('')}${pins}<rect x="470" y="260" width="320" height="220" rx="18" fill="#0f172a"/><rect x="500" y="290" width="260" height="160" rx="10" fill="none" stroke="#22d3ee" stroke-width="4"/>
  <text x="630" y="385" text-anchor="middle" font-family="DejaVu Sans Mono, monospace" font-size="54" font-weight="bold" fill="#67e8f9">&lt;/&gt;</text>`;
}

function laptop(x: number, y: number, seed = 5) {
  const rnd = random(seed);
  const colours = ['#f472b6', '#67e8f9', '#fde68a', '#a7f3d0', '#c4b5fd'];
  const lines = Array.from({ length: 9 }, (_, i) => {
    const indent = [0, 1, 2, 2, 1, 2, 3, 1, 0][i]! * 34;
    let cx = 60 + indent;
    const parts: string[] = [];
    for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
      const w = 40 + rnd() * 120;
      parts.push(`<rect x="${cx}" y="${50 + i * 36}" width="${w}" height="16" rx="8" fill="${colours[Math.floor(rnd() * colours.length)]}"/>`);
      cx += w + 14;
    }
    return parts.join('');
  }).join('');
  return `<g transform="translate(${x} ${y})"><rect width="620" height="400" rx="22" fill="#111827"/><rect x="22" y="22" width="576" height="356" rx="8" fill="#0b1220"/>${lines}
  <path d="M-70 400 H690 L650 446 H-30Z" fill="#cbd5e1"/><rect x="250" y="400" width="120" height="12" rx="6" fill="#94a3b8"/></g>`;
}

function network(seed = 13, colour = '#fff') {
  const rnd = random(seed);
  const nodes = Array.from({ length: 16 }, () => [120 + rnd() * (W - 240), 90 + rnd() * (H - 220)] as const);
  const edges: string[] = [];
  nodes.forEach(([x, y], i) => {
    for (let j = i + 1; j < nodes.length; j++) {
      const [x2, y2] = nodes[j]!;
      if (Math.hypot(x - x2, y - y2) < 330) edges.push(`<line x1="${x}" y1="${y}" x2="${x2}" y2="${y2}" stroke="${colour}" stroke-opacity="0.35" stroke-width="5"/>`);
    }
  });
  const people = nodes
    .map(([x, y], i) => {
      const r = 26 + (i % 3) * 8;
      const fill = ['#fde68a', '#bfdbfe', '#fbcfe8', '#bbf7d0'][i % 4];
      return `<circle cx="${x}" cy="${y}" r="${r + 12}" fill="${colour}" fill-opacity="0.2"/><circle cx="${x}" cy="${y - r * 0.25}" r="${r * 0.45}" fill="${fill}"/><path d="M${x - r * 0.75} ${y + r * 0.75} a${r * 0.75} ${r * 0.7} 0 0 1 ${r * 1.5} 0Z" fill="${fill}"/>`;
    })
    .join('');
  return edges.join('') + people;
}

function barChart(x: number, y: number) {
  const bars = [90, 140, 120, 200, 260, 330].map((h, i) => `<rect x="${x + 50 + i * 70}" y="${y + 360 - h}" width="46" height="${h}" rx="6" fill="${i === 5 ? '#fde68a' : '#bfdbfe'}"/>`).join('');
  return `<rect x="${x}" y="${y}" width="520" height="400" rx="16" fill="#f8fafc" fill-opacity="0.12" stroke="#fff" stroke-opacity="0.6" stroke-width="4"/>${bars}
  <path d="M${x + 60} ${y + 250} L${x + 200} ${y + 200} L${x + 300} ${y + 160} L${x + 460} ${y + 40}" fill="none" stroke="#fde68a" stroke-width="8" stroke-linecap="round"/><path d="M${x + 430} ${y + 36} L${x + 466} ${y + 36} L${x + 462} ${y + 72}" fill="none" stroke="#fde68a" stroke-width="8" stroke-linecap="round"/>`;
}

const hills = (colours: string[]) =>
  colours
    .map((c, i) => {
      const y = 430 + i * 80;
      return `<path d="M0 ${y} Q${W * 0.25} ${y - 110 + i * 20} ${W * 0.5} ${y - 20} T${W} ${y - 40} V${H} H0Z" fill="${c}"/>`;
    })
    .join('');

const heart = (x: number, y: number, s: number, fill: string) =>
  `<path transform="translate(${x} ${y}) scale(${s})" d="M0 30 C-10 -10 -70 -10 -70 35 C-70 70 -25 95 0 120 C25 95 70 70 70 35 C70 -10 10 -10 0 30Z" fill="${fill}"/>`;

function leaves(seed = 17) {
  const rnd = random(seed);
  return Array.from({ length: 26 }, () => {
    const x = rnd() * W;
    const y = rnd() * H;
    const r = rnd() * 360;
    const s = 0.6 + rnd() * 1.1;
    const fill = ['#facc15', '#f97316', '#84cc16', '#16a34a'][Math.floor(rnd() * 4)];
    return `<path transform="translate(${x} ${y}) rotate(${r}) scale(${s})" d="M0 -50 C40 -30 40 30 0 50 C-40 30 -40 -30 0 -50Z" fill="${fill}" fill-opacity="0.9"/><path transform="translate(${x} ${y}) rotate(${r}) scale(${s})" d="M0 -46 V46" stroke="#000" stroke-opacity="0.2" stroke-width="3"/>`;
  }).join('');
}

const boxes = () =>
  [
    [380, 420, 200, 170, '#d6a36a'],
    [600, 420, 220, 170, '#c28f57'],
    [470, 250, 220, 170, '#e0b27c'],
    [840, 460, 160, 130, '#d6a36a'],
  ]
    .map(([x, y, w, h, f]) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="8" fill="${f}"/><rect x="${Number(x) + Number(w) / 2 - 18}" y="${y}" width="36" height="${h}" fill="#fff" fill-opacity="0.35"/>`)
    .join('') + heart(590, 300, 0.7, '#ef4444');

function dumpling(x: number, y: number) {
  const pleats = [-40, -20, 0, 20, 40].map((dx) => `<path d="M${x + dx} ${y - 46} q6 20 0 36" stroke="#d6d3d1" stroke-width="5" fill="none"/>`).join('');
  return `<path d="M${x - 90} ${y + 20} Q${x - 80} ${y - 70} ${x} ${y - 70} Q${x + 80} ${y - 70} ${x + 90} ${y + 20} Q${x} ${y + 50} ${x - 90} ${y + 20}Z" fill="#fafaf9"/>${pleats}`;
}

function loaf(x: number, y: number) {
  const cuts = [-110, -30, 50].map((dx) => `<path d="M${x + dx} ${y - 40} q40 -30 70 10" stroke="#fde68a" stroke-width="14" fill="none" stroke-linecap="round"/>`).join('');
  return `<ellipse cx="${x}" cy="${y + 70}" rx="300" ry="30" fill="#000" fill-opacity="0.2"/><path d="M${x - 260} ${y + 60} Q${x - 280} ${y - 120} ${x} ${y - 130} Q${x + 280} ${y - 120} ${x + 260} ${y + 60}Z" fill="#b45309"/>${cuts}`;
}

function bowl(x: number, y: number, inner: string) {
  return `<ellipse cx="${x}" cy="${y}" rx="300" ry="60" fill="#fff7ed"/>${inner}<path d="M${x - 300} ${y} Q${x - 280} ${y + 220} ${x} ${y + 230} Q${x + 280} ${y + 220} ${x + 300} ${y}Z" fill="#fff"/><path d="M${x - 270} ${y + 40} Q${x} ${y + 90} ${x + 270} ${y + 40}" stroke="#ea580c" stroke-width="10" fill="none"/>`;
}

const pasta = (x: number, y: number) => {
  const rnd = random(23);
  return Array.from({ length: 14 }, () => {
    const sx = x - 230 + rnd() * 460;
    const sy = y - 20 + rnd() * 40;
    return `<path d="M${sx} ${sy} q40 -40 80 0 t80 0" stroke="#fcd34d" stroke-width="12" fill="none" stroke-linecap="round"/>`;
  }).join('') + `<circle cx="${x + 60}" cy="${y - 20}" r="16" fill="#16a34a"/><circle cx="${x - 80}" cy="${y}" r="14" fill="#dc2626"/>`;
};

function lotus(x: number, y: number) {
  const petals = [-60, -30, 0, 30, 60].map((r) => `<path transform="translate(${x} ${y}) rotate(${r})" d="M0 0 C50 -60 40 -160 0 -200 C-40 -160 -50 -60 0 0Z" fill="#fff" fill-opacity="${0.55 + Math.abs(r) / 300}"/>`).join('');
  const ripples = [1, 2, 3, 4].map((i) => `<ellipse cx="${x}" cy="${y + 20}" rx="${140 * i}" ry="${26 * i}" fill="none" stroke="#fff" stroke-opacity="${0.5 - i * 0.1}" stroke-width="5"/>`).join('');
  return ripples + petals;
}

function strings() {
  const staff = [0, 1, 2, 3, 4].map((i) => `<path d="M-40 ${300 + i * 34} C300 ${220 + i * 34} 700 ${420 + i * 34} ${W + 40} ${280 + i * 34}" stroke="#fff" stroke-opacity="0.7" stroke-width="4" fill="none"/>`).join('');
  return staff + note(260, 330, 1.4) + note(440, 350, 1.2) + note(640, 390, 1.5) + note(860, 360, 1.2) + note(1040, 330, 1.4);
}

// ---------------------------------------------------------------------------------------------
// Scenes: file name (what the feeds point at) -> picture

type Format = 'jpg' | 'png' | 'webp';
interface Scene {
  file: `${string}.${Format}`;
  draw: () => string;
}

const SCENES: Scene[] = [
  // Music
  { file: 'jazz-night.jpg', draw: () => backdrop('jazz', C.music, { dark: true }) + spotlight(420, 320) + spotlight(900, 280, 0.14) + note(300, 250) + note(520, 180, 1.3) + note(820, 260, 1.1) + note(1000, 160) + pianoKeys(520) },
  { file: 'vinyl-night.jpg', draw: () => backdrop('vinyl', C.music, { dark: true, glow: [380, 360] }) + record(420, 360, 290, '#f59e0b') + `<path d="M1000 80 L900 470 L820 520" stroke="#e5e7eb" stroke-width="18" fill="none" stroke-linecap="round"/><circle cx="1000" cy="80" r="40" fill="#e5e7eb"/>` + note(930, 620, 1.1) },
  { file: 'open-mic.jpg', draw: () => backdrop('mic', C.music, { dark: true, glow: [640, 220] }) + spotlight(640, 420, 0.22) + microphone(640, 230) },
  { file: 'live-band.jpg', draw: () => backdrop('band', C.music, { dark: true }) + spotlight(260, 260, 0.16) + spotlight(640, 320, 0.2) + spotlight(1020, 260, 0.16) + `<rect x="0" y="430" width="${W}" height="40" fill="#111827"/>` + note(640, 200, 1.4) + crowd(560) },
  { file: 'strings-recital.webp', draw: () => backdrop('strings', ['#7c3aed', '#f59e0b']) + strings() },
  { file: 'beer-festival.jpg', draw: () => backdrop('beer', ['#b45309', '#7c3aed']) + `<path d="M0 60 L${W} 60" stroke="#fff" stroke-width="4"/>${Array.from({ length: 14 }, (_, i) => `<polygon points="${i * 96},60 ${i * 96 + 80},60 ${i * 96 + 40},130" fill="${['#fde68a', '#f472b6', '#67e8f9', '#a7f3d0'][i % 4]}"/>`).join('')}` + glass(420, 330, '#f59e0b') + glass(820, 350, '#b45309') },
  // Arts
  { file: 'gallery-opening.jpg', draw: () => backdrop('gallery', C.arts, { glow: [640, 120] }) + frame(120, 170, 300, 380, '<rect width="100" height="100" fill="#fde68a"/><circle cx="40" cy="40" r="24" fill="#db2777"/><rect x="50" y="55" width="40" height="35" fill="#1e3a8a"/>') + frame(510, 130, 260, 260, '<rect width="100" height="100" fill="#a7f3d0"/><path d="M0 80 Q50 20 100 70 V100 H0Z" fill="#0d9488"/><circle cx="75" cy="25" r="12" fill="#f59e0b"/>') + frame(860, 200, 300, 220, '<rect width="100" height="100" fill="#1f2937"/><path d="M10 90 L40 20 L70 90Z" fill="#f472b6"/><circle cx="75" cy="40" r="18" fill="#fde68a"/>') + `<rect x="0" y="640" width="${W}" height="80" fill="#3f2a1d" fill-opacity="0.5"/>` },
  { file: 'theatre-stage.jpg', draw: () => backdrop('theatre', ['#1f2937', '#db2777'], { dark: true, glow: [640, 420] }) + `<ellipse cx="640" cy="600" rx="330" ry="60" fill="#fff" fill-opacity="0.3"/>` + spotlight(640, 330, 0.18) + curtains() + `<rect x="0" y="640" width="${W}" height="80" fill="#3f2a1d"/>` },
  { file: 'film-night.jpg', draw: () => backdrop('film', ['#db2777', '#1e1b4b'], { dark: true, glow: [700, 200] }) + `<rect x="390" y="70" width="620" height="330" rx="10" fill="#f8fafc" fill-opacity="0.9"/><polygon points="160,720 400,400 1000,400 1240,720" fill="#fff" fill-opacity="0.07"/><circle cx="600" cy="230" r="70" fill="#fde68a"/><path d="M420 380 L560 250 L660 330 L760 220 L990 380Z" fill="#1e1b4b" fill-opacity="0.75"/>` + filmStrip() },
  { file: 'ceramics.jpg', draw: () => backdrop('ceramics', C.arts, { glow: [640, 200] }) + `<rect x="0" y="560" width="${W}" height="40" fill="#3f2a1d"/><rect x="0" y="600" width="${W}" height="120" fill="#000" fill-opacity="0.25"/>` + pot(330, 300, 260, 260, '#fdf2f8') + pot(640, 230, 300, 330, '#f59e0b') + pot(950, 330, 230, 230, '#1e3a8a') },
  { file: 'printmaking.png', draw: () => `<rect width="${W}" height="${H}" fill="#fdf2f8"/>${Array.from({ length: 9 }, (_, i) => `<path d="M0 ${80 + i * 80} Q160 ${20 + i * 80} 320 ${80 + i * 80} T640 ${80 + i * 80} T960 ${80 + i * 80} T1280 ${80 + i * 80}" stroke="#db2777" stroke-width="22" fill="none"/>`).join('')}<circle cx="900" cy="260" r="150" fill="#1e1b4b"/><circle cx="900" cy="260" r="110" fill="#fdf2f8"/><circle cx="900" cy="260" r="70" fill="#f59e0b"/><path d="M200 620 L420 300 L640 620Z" fill="#1e1b4b"/><path d="M330 620 L420 470 L510 620Z" fill="#fdf2f8"/><defs><radialGradient id="vignette"><stop offset="1" stop-opacity="0"/></radialGradient></defs>` },
  { file: 'makers-fair.jpg', draw: () => backdrop('fair', C.arts, { glow: [640, 100] }) + tents(220, ['#fdf2f8', '#be185d'], 31) + `<rect x="0" y="660" width="${W}" height="60" fill="#000" fill-opacity="0.25"/>` },
  // Tech and business
  { file: 'code-meetup.jpg', draw: () => backdrop('code', C.tech) + `<text x="110" y="300" font-family="DejaVu Sans Mono, monospace" font-size="220" font-weight="bold" fill="#fff" fill-opacity="0.25">{</text><text x="1060" y="300" font-family="DejaVu Sans Mono, monospace" font-size="220" font-weight="bold" fill="#fff" fill-opacity="0.25">}</text>` + laptop(330, 150) },
  { file: 'hack-night.jpg', draw: () => backdrop('hack', ['#0891b2', '#0f172a'], { dark: true, glow: [640, 370] }) + circuit() },
  { file: 'pitch-night.jpg', draw: () => backdrop('pitch', C.business, { glow: [900, 250] }) + barChart(620, 90) + `<path d="M240 440 H460 L430 660 H270Z" fill="#0f172a"/><rect x="230" y="420" width="240" height="30" rx="8" fill="#1e293b"/><circle cx="350" cy="300" r="46" fill="#fde68a"/><path d="M280 420 a70 80 0 0 1 140 0Z" fill="#fde68a"/><path d="M350 440 L400 380" stroke="#cbd5e1" stroke-width="8"/>` + crowd(640, '#0f172a', 41) },
  { file: 'networking.jpg', draw: () => backdrop('network', C.business, { glow: [640, 360] }) + network() },
  { file: 'coffee-and-code.jpg', draw: () => backdrop('coffee-code', C.tech) + steam(640, 230) + cup(640, 300, '#f8fafc') + `<text x="640" y="470" text-anchor="middle" font-family="DejaVu Sans Mono, monospace" font-size="64" font-weight="bold" fill="#0891b2">&lt;/&gt;</text>` },
  // Food
  { file: 'pasta-class.jpg', draw: () => backdrop('pasta', C.food, { glow: [640, 300] }) + bowl(640, 340, pasta(640, 330)) + `<path d="M1000 140 L1080 560" stroke="#e5e7eb" stroke-width="16" stroke-linecap="round"/><path d="M960 120 v70 M990 115 v70 M1020 110 v70" stroke="#e5e7eb" stroke-width="10" stroke-linecap="round"/>` },
  { file: 'dumplings.jpg', draw: () => backdrop('dumplings', C.food, { glow: [640, 320] }) + `<ellipse cx="640" cy="400" rx="420" ry="170" fill="#a16207"/><ellipse cx="640" cy="380" rx="390" ry="150" fill="#fde68a" fill-opacity="0.6"/>` + dumpling(450, 390) + dumpling(650, 340) + dumpling(840, 400) + dumpling(640, 460) + steam(640, 190) },
  { file: 'wine-tasting.jpg', draw: () => backdrop('wine', ['#7f1d1d', '#ea580c'], { glow: [640, 200] }) + wineGlass(520, 170, -10) + wineGlass(760, 170, 10) + Array.from({ length: 9 }, (_, i) => `<circle cx="${1020 + (i % 3) * 40 + Math.floor(i / 3) * 20}" cy="${430 + Math.floor(i / 3) * 40}" r="24" fill="#581c87"/>`).join('') },
  { file: 'coffee-cupping.jpg', draw: () => backdrop('cupping', ['#ea580c', '#451a03'], { glow: [640, 250] }) + steam(640, 230) + cup(640, 300, '#fef3c7') + Array.from({ length: 12 }, (_, i) => `<ellipse cx="${140 + (i % 4) * 40 + (i > 7 ? 900 : 0)}" cy="${560 + Math.floor((i % 8) / 4) * 40}" rx="18" ry="12" fill="#451a03" transform="rotate(30 ${140 + (i % 4) * 40} 560)"/>`).join('') },
  { file: 'soup-pot.jpg', draw: () => backdrop('soup', C.food, { glow: [640, 260] }) + steam(640, 260) + `<rect x="330" y="300" width="620" height="300" rx="40" fill="#334155"/><rect x="300" y="280" width="680" height="50" rx="20" fill="#475569"/><rect x="250" y="340" width="80" height="30" rx="14" fill="#475569"/><rect x="950" y="340" width="80" height="30" rx="14" fill="#475569"/><ellipse cx="640" cy="292" rx="300" ry="18" fill="#dc2626"/>` + `<rect x="200" y="600" width="880" height="40" rx="20" fill="#1f2937" fill-opacity="0.5"/>` },
  { file: 'bread.jpg', draw: () => backdrop('bread', ['#ea580c', '#fde68a'], { glow: [640, 300] }) + `<rect x="0" y="470" width="${W}" height="250" fill="#7c4a2d"/>` + loaf(640, 420) + `<circle cx="1080" cy="560" r="50" fill="#fff7ed"/><circle cx="1150" cy="600" r="30" fill="#fff7ed"/>` },
  { file: 'night-market.jpg', draw: () => backdrop('night-market', ['#ea580c', '#1e1b4b'], { dark: true, glow: [640, 120] }) + stringLights(40) + tents(250, ['#fde68a', '#c2410c'], 37) + crowd(640, '#0b1020', 43) },
  { file: 'farmers-market.jpg', draw: () => backdrop('farmers', ['#ea580c', '#16a34a'], { glow: [1000, 100] }) + `<circle cx="1040" cy="110" r="70" fill="#fde68a"/>` + tents(230, ['#fff7ed', '#16a34a'], 47) },
  // Wellness and community
  { file: 'yoga-morning.jpg', draw: () => backdrop('yoga', ['#0d9488', '#fde68a'], { glow: [640, 380] }) + `<circle cx="640" cy="420" r="170" fill="#fef3c7"/>` + hills(['#14b8a6', '#0f766e', '#134e4a']) + `<rect x="420" y="600" width="440" height="36" rx="18" fill="#f472b6"/>` },
  { file: 'meditation.jpg', draw: () => backdrop('meditation', C.wellness, { glow: [640, 300] }) + lotus(640, 430) },
  { file: 'blood-drive.jpg', draw: () => backdrop('blood', C.wellness, { glow: [640, 340] }) + heart(640, 220, 2.6, '#dc2626') + `<rect x="614" y="300" width="52" height="150" rx="10" fill="#fff"/><rect x="565" y="349" width="150" height="52" rx="10" fill="#fff"/>` },
  { file: 'volunteer-day.jpg', draw: () => backdrop('volunteer', C.other, { glow: [640, 200] }) + boxes() },
  { file: 'clean-up.jpg', draw: () => backdrop('clean-up', C.other, { glow: [640, 300] }) + leaves() + `<path d="M560 640 L600 250" stroke="#92400e" stroke-width="16" stroke-linecap="round"/><path d="M520 620 L560 700 H680 L700 620Z" fill="#fbbf24"/>` },
];

async function render(scene: Scene): Promise<Buffer> {
  const image = sharp(Buffer.from(svg(scene.draw())));
  const ext = scene.file.slice(scene.file.lastIndexOf('.') + 1) as Format;
  if (ext === 'png') return image.png({ palette: true, colours: 32, compressionLevel: 9, effort: 10 }).toBuffer();
  if (ext === 'webp') return image.webp({ quality: 74, effort: 6 }).toBuffer();
  return image.jpeg({ quality: 74, mozjpeg: true, chromaSubsampling: '4:2:0' }).toBuffer();
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  let total = 0;
  const rendered: { file: string; bytes: Buffer }[] = [];
  for (const scene of SCENES) {
    const bytes = await render(scene);
    writeFileSync(join(OUT, scene.file), bytes);
    total += statSync(join(OUT, scene.file)).size;
    rendered.push({ file: scene.file, bytes });
    console.log(`${scene.file.padEnd(24)} ${(bytes.length / 1024).toFixed(1).padStart(6)} KB`);
  }
  console.log(`${SCENES.length} pictures, ${(total / 1024).toFixed(0)} KB in all, in ${OUT}`);

  // A contact sheet for looking them over: --sheet <file.png>
  const at = process.argv.indexOf('--sheet');
  if (at > 0 && process.argv[at + 1]) {
    const cols = 5;
    const tw = 320;
    const th = 180;
    const tiles = await Promise.all(rendered.map(async (r, i) => ({ input: await sharp(r.bytes).resize(tw, th).toBuffer(), left: (i % cols) * tw, top: Math.floor(i / cols) * th })));
    await sharp({ create: { width: cols * tw, height: Math.ceil(rendered.length / cols) * th, channels: 3, background: '#fff' } })
      .composite(tiles)
      .png()
      .toFile(process.argv[at + 1]!);
  }
}

await main();
