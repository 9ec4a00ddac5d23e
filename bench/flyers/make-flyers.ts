// The flyer set of the scan benchmark (bench/flyers.bench.ts): real event records from
// ../shared/fixtures (iCalendar feeds, Ticketmaster and PredictHQ API responses, Songkick
// JSON-LD) rendered as posters with sharp from SVG, the way a phone photo of a printed flyer
// looks: varied fonts, layouts, colours, title sizes and real poster date styles, then rotated
// (up to 5 degrees), blurred and saved as a noisy JPEG. Generated at run time into a temporary
// directory: the fixtures' texts are not copied into the repository.
//
//   node --import tsx bench/flyers/make-flyers.ts [outDir]    (writes the JPEGs and truth.json)
//
// Dates are moved into the weeks after the bench's fixed `now` (same weekday and wall-clock time
// as the record), so a poster's "SAT DEC 6" without a year means one day; the printed text and the
// truth agree. One time zone for the whole set: the city's (America/Los_Angeles).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { prng } from '../lib.ts';

/** ../shared/fixtures, beside the repository. */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
export const TIME_ZONE = 'America/Los_Angeles';
/** The bench's fixed "today": Tuesday 24 November 2026, 10:00 in Portland. */
export const NOW = new Date('2026-11-24T18:00:00Z');
export const FLYER_COUNT = 64;
const SEED = 13;

export function fixturesPresent(): boolean {
  return existsSync(join(FIXTURES_DIR, 'ics')) && existsSync(join(FIXTURES_DIR, 'api')) && existsSync(join(FIXTURES_DIR, 'jsonld'));
}

/** One real record: a title, a local wall-clock start (or a date only), and a venue when known. */
interface Record {
  source: string;
  title: string;
  /** Weekday of the original date, 0 = Sunday. */
  weekday: number;
  /** Minutes after midnight, or null for a date-only (all-day) record. */
  minutes: number | null;
  venue: string | null;
}

export interface Flyer {
  id: string;
  file: string;
  source: string;
  truth: {
    title: string;
    /** Local date in the set's zone, YYYY-MM-DD. */
    date: string;
    /** Local time, HH:MM, or null on a date-only poster. */
    time: string | null;
    venue: string | null;
  };
  style: {
    layout: string;
    titleFont: string;
    bodyFont: string;
    titleSize: number;
    palette: string;
    dateStyle: string;
    dateText: string;
    rotate: number;
    blur: number;
    quality: number;
    upper: boolean;
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the fixtures

const clean = (s: string) =>
  s
    .replace(/\\n/gi, ' ')
    .replace(/\\([,;\\])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

/** English-looking, printable, poster-sized titles; no scores, no bare numbers. */
function usableTitle(t: string): boolean {
  if (t.length < 4 || t.length > 56) return false;
  if (!/^[\x20-\x7e]+$/.test(t)) return false; // the OCR data is English; accented titles are left out
  if (!/[A-Za-z]{3,}/.test(t)) return false;
  if (/\d+\s*[-:]\s*\d+/.test(t)) return false; // match results "2-1", times in titles
  if (/https?:|www\.|@\w+\./i.test(t)) return false;
  if (/\b(19|20)\d{2}\b|\d+\.\d+|#/.test(t)) return false; // years, dotted dates and numbers compete with the poster's date
  return true;
}

const weekdayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/** Local wall clock of an instant in a zone. */
function wallClock(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts(date);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour'), min: get('minute') };
}

function fromIcs(file: string, source: string): Record[] {
  const text = readFileSync(file, 'utf8').replace(/\r?\n[ \t]/g, '');
  const calZone = /^X-WR-TIMEZONE:(.+)$/m.exec(text)?.[1]?.trim();
  const out: Record[] = [];
  for (const block of text.split('BEGIN:VEVENT').slice(1)) {
    const body = block.split('END:VEVENT')[0]!;
    const summary = /^SUMMARY[^:\n]*:(.*)$/m.exec(body)?.[1];
    const dt = /^DTSTART([^:\n]*):(\d{8})(T(\d{2})(\d{2})\d{2}(Z?))?/m.exec(body);
    if (!summary || !dt) continue;
    const title = clean(summary);
    const location = /^LOCATION[^:\n]*:(.*)$/m.exec(body)?.[1];
    const venue = location ? clean(location).split(',')[0]!.trim() || null : null;
    let [y, m, d] = [Number(dt[2]!.slice(0, 4)), Number(dt[2]!.slice(4, 6)), Number(dt[2]!.slice(6, 8))];
    let minutes: number | null = null;
    if (dt[3]) {
      let h = Number(dt[4]);
      let min = Number(dt[5]);
      if (dt[6] === 'Z') {
        if (!calZone) continue; // a UTC instant with no local zone: its poster time is unknown
        const w = wallClock(new Date(Date.UTC(y, m - 1, d, h, min)), calZone);
        [y, m, d, h, min] = [w.y, w.m, w.d, w.h, w.min];
      }
      minutes = h * 60 + min;
    }
    out.push({ source, title, weekday: weekdayOf(y, m, d), minutes, venue: venue && venue.length <= 48 && /^[\x20-\x7e]+$/.test(venue) ? venue : null });
  }
  return out;
}

/** Event feeds only: holiday lists, TV guides, fixture lists, release schedules and travel itineraries are not flyers. */
const ICS_FILES = [
  'ical4j__lastfm.ics',
  'ical4j__japan_west.ics',
  'nodeical__multi-event-basic.ics',
  'nodeical__meetup-timed-tz.ics',
  'icalendar__issue_53_description_parsed_properly.ics',
  'recurring__discourse_no_dtend.ics',
  'recurring__machbar_16_feb_2019.ics',
  'recurring__fablab_cottbus.ics',
  'recurring__rdate_hackerpublicradio.ics',
];

function fromTicketmaster(file: string, source: string): Record[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { _embedded?: { events?: unknown[] } };
  const out: Record[] = [];
  for (const e of (data._embedded?.events ?? []) as {
    name: string;
    dates?: { start?: { localDate?: string; localTime?: string } };
    _embedded?: { venues?: { name?: string }[]; venue?: { name?: string }[] };
  }[]) {
    const s = e.dates?.start;
    if (!s?.localDate) continue;
    const [y, m, d] = s.localDate.split('-').map(Number) as [number, number, number];
    const minutes = s.localTime ? Number(s.localTime.slice(0, 2)) * 60 + Number(s.localTime.slice(3, 5)) : null;
    const v = (e._embedded?.venues ?? e._embedded?.venue ?? [])[0]?.name?.replace(/\s+/g, ' ').trim() ?? null;
    out.push({ source, title: clean(e.name), weekday: weekdayOf(y, m, d), minutes, venue: v });
  }
  return out;
}

function fromPredictHq(file: string, source: string): Record[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { body?: { results?: { title?: string; start?: string; timezone?: string }[] } }[];
  const out: Record[] = [];
  for (const r of data) {
    for (const e of r.body?.results ?? []) {
      if (!e.title || !e.start || !e.timezone) continue;
      const w = wallClock(new Date(/[Z+]/.test(e.start.slice(10)) ? e.start : `${e.start}Z`), e.timezone);
      out.push({ source, title: clean(e.title), weekday: weekdayOf(w.y, w.m, w.d), minutes: w.h * 60 + w.min, venue: null });
    }
  }
  return out;
}

function fromJsonLd(file: string, source: string): Record[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { 'json-ld'?: unknown[] };
  const out: Record[] = [];
  for (const e of (data['json-ld'] ?? []) as { '@type'?: string; name?: string; startDate?: string; location?: { name?: string } }[]) {
    if (!e.name || !e.startDate || !/Event$/.test(e['@type'] ?? '')) continue;
    const m = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2}))?/.exec(e.startDate);
    if (!m) continue;
    out.push({
      source,
      title: clean(e.name),
      weekday: weekdayOf(Number(m[1]), Number(m[2]), Number(m[3])),
      minutes: m[4] ? Number(m[5]) * 60 + Number(m[6]) : null,
      venue: e.location?.name ? clean(e.location.name) : null,
    });
  }
  return out;
}

export function loadRecords(): Record[] {
  const all: Record[] = [];
  for (const f of ICS_FILES) {
    const p = join(FIXTURES_DIR, 'ics', f);
    if (existsSync(p)) all.push(...fromIcs(p, f.replace(/\.ics$/, '')));
  }
  for (const f of ['ticketmaster__discovery_v2_event_all-200.response_body.json', 'ticketmaster__discovery_v1_event_all-200.response_body.json']) {
    const p = join(FIXTURES_DIR, 'api', f);
    if (existsSync(p)) all.push(...fromTicketmaster(p, f.replace(/-200.*$/, '')));
  }
  const phq = join(FIXTURES_DIR, 'api', 'predicthq__events_search.json');
  if (existsSync(phq)) all.push(...fromPredictHq(phq, 'predicthq__events_search'));
  for (const f of readdirSync(join(FIXTURES_DIR, 'jsonld')).filter((x) => /songkick.*\.json$/.test(x))) {
    all.push(...fromJsonLd(join(FIXTURES_DIR, 'jsonld', f), 'songkick'));
  }
  // Usable titles, timed starts at poster hours (or date only), one record per title.
  const seen = new Set<string>();
  return all.filter((r) => {
    const key = r.title.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
    if (!usableTitle(r.title) || seen.has(key)) return false;
    if (r.minutes !== null && (r.minutes < 8 * 60 || r.minutes > 23 * 60)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Dates as posters write them

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface LocalDate {
  y: number;
  m: number;
  d: number;
  wd: number;
}

type Rng = ReturnType<typeof prng>;

function timeText(minutes: number, r: Rng, style: 'upper' | 'lower' | 'dots' | 'full'): string {
  const h24 = Math.floor(minutes / 60);
  const min = minutes % 60;
  const h = h24 % 12 === 0 ? 12 : h24 % 12;
  const pm = h24 >= 12;
  const mm = min ? `:${String(min).padStart(2, '0')}` : '';
  switch (style) {
    case 'upper':
      return `${h}${mm}${r.next() < 0.5 ? '' : ' '}${pm ? 'PM' : 'AM'}`;
    case 'lower':
      return `${h}${mm}${pm ? 'pm' : 'am'}`;
    case 'dots':
      return `${h}${mm || ':00'} ${pm ? 'p.m.' : 'a.m.'}`;
    case 'full':
      return `${h}:${String(min).padStart(2, '0')} ${pm ? 'PM' : 'AM'}`;
  }
}

/** The date (and time) lines of a poster in one of the usual US styles. */
function dateLines(dt: LocalDate, minutes: number | null, r: Rng): { style: string; lines: string[] } {
  const day = DAYS[dt.wd]!;
  const month = MONTHS[dt.m - 1]!;
  const dy3 = day.slice(0, 3);
  const mo3 = month.slice(0, 3);
  if (minutes === null) {
    const style = r.pick(['abbr', 'long', 'long-year', 'numeric'] as const);
    const line = {
      abbr: `${dy3} ${mo3} ${dt.d}`.toUpperCase(),
      long: `${day}, ${month} ${dt.d}`,
      'long-year': `${month} ${dt.d}, ${dt.y}`,
      numeric: `${dy3} ${dt.m}/${dt.d}/${dt.y}`,
    }[style];
    return { style: `date-only:${style}`, lines: [line] };
  }
  const style = r.weighted([
    ['abbr-dot', 3], // SAT DEC 6 · 7PM
    ['long-at', 3], // Friday, December 12 at 8:30 PM
    ['stacked', 2], // SATURDAY / DECEMBER 6 / 7:00 PM
    ['date-then-time', 2], // Saturday, December 6 / 7:30pm
    ['slash-at', 2], // Sat 12/6 @ 7pm
    ['year-pipe', 2], // Dec. 6, 2026 | 7:30 p.m.
    ['time-first', 1], // 7PM · SATURDAY, DEC 6
    ['range', 1], // Friday Dec 12, 8–11pm
  ] as const);
  const t = minutes;
  switch (style) {
    case 'abbr-dot':
      return { style, lines: [`${dy3} ${mo3} ${dt.d} ${r.pick(['·', '|', '/', '-'])} ${timeText(t, r, 'upper')}`.toUpperCase()] };
    case 'long-at':
      return { style, lines: [`${day}, ${month} ${dt.d} at ${timeText(t, r, r.pick(['full', 'upper'] as const))}`] };
    case 'stacked':
      return { style, lines: [day.toUpperCase(), `${month} ${dt.d}`.toUpperCase(), timeText(t, r, 'full')] };
    case 'date-then-time':
      return { style, lines: [`${day}, ${month} ${dt.d}`, r.pick(['', 'Starts ', 'Doors ']) + timeText(t, r, 'lower')] };
    case 'slash-at':
      return { style, lines: [`${dy3} ${dt.m}/${dt.d} @ ${timeText(t, r, 'lower')}`] };
    case 'year-pipe':
      return { style, lines: [`${mo3}. ${dt.d}, ${dt.y} | ${timeText(t, r, 'dots')}`] };
    case 'time-first':
      return { style, lines: [`${timeText(t, r, 'upper')} · ${day}, ${mo3} ${dt.d}`.toUpperCase()] };
    case 'range': {
      const end = Math.min(t + 60 * r.int(2, 3), 23 * 60 + 59);
      const h = (x: number) => (Math.floor(x / 60) % 12 || 12) + (x % 60 ? `:${String(x % 60).padStart(2, '0')}` : '');
      const sameHalf = t >= 12 * 60 === end >= 12 * 60;
      const from = sameHalf ? h(t) : timeText(t, r, 'lower');
      return { style, lines: [`${dy3} ${mo3} ${dt.d}, ${from}–${timeText(end, r, 'lower')}`] };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

interface Font {
  name: string;
  family: string;
  weight?: number | 'bold';
  stretch?: string;
  /** Average advance of a mixed-case character, in ems (for wrapping). */
  em: number;
}
const FONTS: Font[] = [
  { name: 'DejaVu Sans Bold', family: 'DejaVu Sans', weight: 'bold', em: 0.66 },
  { name: 'DejaVu Sans', family: 'DejaVu Sans', em: 0.6 },
  { name: 'DejaVu Sans Condensed Bold', family: 'DejaVu Sans', weight: 'bold', stretch: 'condensed', em: 0.58 },
  { name: 'DejaVu Sans ExtraLight', family: 'DejaVu Sans', weight: 200, em: 0.58 },
  { name: 'DejaVu Serif Bold', family: 'DejaVu Serif', weight: 'bold', em: 0.66 },
  { name: 'DejaVu Serif', family: 'DejaVu Serif', em: 0.6 },
  { name: 'DejaVu Sans Mono Bold', family: 'DejaVu Sans Mono', weight: 'bold', em: 0.62 },
  { name: 'Liberation Sans Bold', family: 'Liberation Sans', weight: 'bold', em: 0.6 },
  { name: 'Liberation Sans', family: 'Liberation Sans', em: 0.55 },
  { name: 'Liberation Sans Narrow Bold', family: 'Liberation Sans Narrow', weight: 'bold', em: 0.5 },
  { name: 'Liberation Serif Bold', family: 'Liberation Serif', weight: 'bold', em: 0.55 },
  { name: 'Liberation Serif Italic', family: 'Liberation Serif', em: 0.5 },
  { name: 'Liberation Mono', family: 'Liberation Mono', em: 0.6 },
];

interface Palette {
  name: string;
  bg: string;
  fg: string;
  /** A second text colour that reads on bg. */
  accent: string;
  /** Decoration colour (shapes, bands). */
  deco: string;
  /** Text on a deco band. */
  onDeco: string;
}
const PALETTES: Palette[] = [
  { name: 'cream', bg: '#f7f3ea', fg: '#1d1d1f', accent: '#b3261e', deco: '#1d1d1f', onDeco: '#f7f3ea' },
  { name: 'white-navy', bg: '#ffffff', fg: '#1b2a4a', accent: '#c2410c', deco: '#1b2a4a', onDeco: '#ffffff' },
  { name: 'black', bg: '#111111', fg: '#f5f5f5', accent: '#ffcc00', deco: '#ffcc00', onDeco: '#111111' },
  { name: 'navy', bg: '#1b2340', fg: '#f4f1e8', accent: '#7fd1ff', deco: '#7fd1ff', onDeco: '#1b2340' },
  { name: 'mustard', bg: '#f2c14e', fg: '#1a1a1a', accent: '#7a1f1f', deco: '#1a1a1a', onDeco: '#f2c14e' },
  { name: 'teal', bg: '#1f6f6b', fg: '#ffffff', accent: '#ffd166', deco: '#ffd166', onDeco: '#1a1a1a' },
  { name: 'red', bg: '#b3261e', fg: '#fff8e7', accent: '#ffe08a', deco: '#1a1a1a', onDeco: '#fff8e7' },
  { name: 'pink', bg: '#f7c6d9', fg: '#2b0a3d', accent: '#5b2a86', deco: '#2b0a3d', onDeco: '#f7c6d9' },
  { name: 'green', bg: '#2d6a4f', fg: '#f1faee', accent: '#ffd166', deco: '#f1faee', onDeco: '#2d6a4f' },
  { name: 'purple', bg: '#3c1f5c', fg: '#ffe6a7', accent: '#ff9ec4', deco: '#ff9ec4', onDeco: '#3c1f5c' },
  { name: 'sky', bg: '#dff1fb', fg: '#0b3954', accent: '#d7263d', deco: '#0b3954', onDeco: '#dff1fb' },
];

const PRICES = ['$15 at the door', 'FREE', 'Free admission', 'Tickets $20 adv / $25 door', '$10-$20 sliding scale', 'All ages · $12', '$8 · cash only', 'Free · all welcome', 'Tickets $35'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function wrap(text: string, maxChars: number): string[] {
  const words = text.split(' ');
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur && (cur + ' ' + w).length > maxChars) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

interface Line {
  text: string;
  size: number;
  font: Font;
  fill: string;
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}
const textEl = (l: Line) =>
  `<text x="${l.x}" y="${l.y}" font-family="${l.font.family}" font-size="${l.size}"${l.font.weight ? ` font-weight="${l.font.weight}"` : ''}${l.font.stretch ? ` font-stretch="${l.font.stretch}"` : ''}${l.font.name.includes('Italic') ? ' font-style="italic"' : ''} fill="${l.fill}" text-anchor="${l.anchor}">${esc(l.text)}</text>`;

/** Lines of the title at the largest size (from `size` down) that fits `width` in at most 3 lines. */
function fitTitle(title: string, font: Font, size: number, width: number, upper: boolean): { lines: string[]; size: number } {
  const t = upper ? title.toUpperCase() : title;
  for (let s = size; ; s -= 6) {
    const per = s * font.em * (upper ? 1.15 : 1);
    const lines = wrap(t, Math.max(4, Math.floor(width / per)));
    if ((lines.length <= 3 && lines.every((l) => l.length * per <= width)) || s <= 34) return { lines, size: s };
  }
}

async function renderFlyer(rec: Record, when: LocalDate, r: Rng): Promise<{ jpeg: Buffer; style: Flyer['style'] }> {
  const [W, H] = r.pick([
    [900, 1200],
    [850, 1100],
    [1000, 1000],
    [1080, 1350],
  ] as const);
  const pal = r.pick(PALETTES);
  const titleFont = r.pick(FONTS);
  const bodyFont = r.weighted(FONTS.map((f) => [f, f.name.includes('ExtraLight') || f.name.includes('Italic') ? 0.5 : 1] as const));
  const upper = r.next() < 0.55;
  const layout = r.weighted([
    ['centre-stack', 3],
    ['left-aligned', 2],
    ['title-centre-band', 2],
    ['two-column', 2],
    ['title-band', 1],
  ] as const);
  const date = dateLines(when, rec.minutes, r);
  const price = r.next() < 0.7 ? r.pick(PRICES) : null;
  const presenter = rec.venue && r.next() < 0.2 ? `${rec.venue.toUpperCase()} PRESENTS` : null;
  const margin = Math.round(W * 0.08);
  const inner = W - 2 * margin;
  const body = Math.round(r.int(34, 46) * (W / 900));
  const title = fitTitle(rec.title, titleFont, Math.round(r.int(64, 112) * (W / 900)), inner, upper);
  const els: string[] = [`<rect width="100%" height="100%" fill="${pal.bg}"/>`];
  const lines: Line[] = [];
  const deco = r.int(0, 3);
  // Decorations away from the text: corner circles, stripes along an edge, a frame.
  if (deco === 1) els.push(`<circle cx="${W}" cy="${H}" r="${Math.round(W * 0.22)}" fill="${pal.deco}" opacity="0.85"/>`, `<circle cx="0" cy="0" r="${Math.round(W * 0.12)}" fill="${pal.accent}" opacity="0.7"/>`);
  if (deco === 2) for (let i = 0; i < 5; i++) els.push(`<rect x="0" y="${H - 30 - i * 22}" width="${W}" height="10" fill="${pal.deco}" opacity="${0.3 + i * 0.12}"/>`);
  if (deco === 3) els.push(`<rect x="18" y="18" width="${W - 36}" height="${H - 36}" fill="none" stroke="${pal.deco}" stroke-width="8"/>`);
  const gap = (s: number) => Math.round(s * 1.25);
  const cx = W / 2;

  if (layout === 'centre-stack' || layout === 'left-aligned') {
    const anchor = layout === 'centre-stack' ? 'middle' : 'start';
    const x = anchor === 'middle' ? cx : margin;
    let y = Math.round(H * (r.next() < 0.5 ? 0.12 : 0.2));
    if (presenter) {
      lines.push({ text: presenter, size: Math.round(body * 0.75), font: bodyFont, fill: pal.accent, x, y, anchor });
      y += gap(body) + 10;
    }
    y += title.size * 0.8;
    for (const t of title.lines) {
      lines.push({ text: t, size: title.size, font: titleFont, fill: pal.fg, x, y, anchor });
      y += gap(title.size);
    }
    if (layout === 'left-aligned') els.push(`<rect x="${margin}" y="${y - title.size * 0.5}" width="${inner * 0.4}" height="6" fill="${pal.accent}"/>`);
    y += Math.round(H * 0.06);
    for (const d of date.lines) {
      lines.push({ text: d, size: Math.round(body * 1.15), font: bodyFont, fill: pal.accent, x, y, anchor });
      y += gap(body * 1.15);
    }
    y += body * 0.6;
    if (rec.venue) {
      lines.push({ text: rec.venue, size: body, font: bodyFont, fill: pal.fg, x, y, anchor });
      y += gap(body);
    }
    if (price) lines.push({ text: price, size: Math.round(body * 0.9), font: bodyFont, fill: pal.fg, x, y, anchor });
  } else if (layout === 'title-centre-band' || layout === 'title-band') {
    // A band across the poster: the date (title-centre-band) or the title (title-band) inverted in it.
    const bandTitle = layout === 'title-band';
    let y = Math.round(H * 0.1);
    if (presenter) {
      lines.push({ text: presenter, size: Math.round(body * 0.75), font: bodyFont, fill: pal.accent, x: cx, y, anchor: 'middle' });
      y += gap(body);
    }
    if (!bandTitle) {
      const bandH = date.lines.length * gap(body * 1.1) + body;
      els.push(`<rect x="0" y="${y}" width="${W}" height="${bandH}" fill="${pal.deco}"/>`);
      let by = y + body * 1.25;
      for (const d of date.lines) {
        lines.push({ text: d, size: Math.round(body * 1.1), font: bodyFont, fill: pal.onDeco, x: cx, y: by, anchor: 'middle' });
        by += gap(body * 1.1);
      }
      const th = title.lines.length * gap(title.size);
      let ty = Math.max(y + bandH + title.size * 1.5, Math.round(H / 2 - th / 2 + title.size * 0.8));
      for (const t of title.lines) {
        lines.push({ text: t, size: title.size, font: titleFont, fill: pal.fg, x: cx, y: ty, anchor: 'middle' });
        ty += gap(title.size);
      }
      y = Math.max(ty + body, H - Math.round(H * 0.22));
    } else {
      y += Math.round(H * 0.08);
      const bandH = title.lines.length * gap(title.size) + title.size * 0.6;
      els.push(`<rect x="0" y="${y}" width="${W}" height="${bandH}" fill="${pal.deco}"/>`);
      let ty = y + title.size * 1.1;
      for (const t of title.lines) {
        lines.push({ text: t, size: title.size, font: titleFont, fill: pal.onDeco, x: cx, y: ty, anchor: 'middle' });
        ty += gap(title.size);
      }
      y += bandH + body * 2;
      for (const d of date.lines) {
        lines.push({ text: d, size: Math.round(body * 1.15), font: bodyFont, fill: pal.fg, x: cx, y, anchor: 'middle' });
        y += gap(body * 1.15);
      }
      y += body;
    }
    if (rec.venue) {
      lines.push({ text: rec.venue, size: body, font: bodyFont, fill: pal.fg, x: cx, y, anchor: 'middle' });
      y += gap(body);
    }
    if (price) lines.push({ text: price, size: Math.round(body * 0.9), font: bodyFont, fill: pal.accent, x: cx, y, anchor: 'middle' });
  } else {
    // two-column: the title across the top, then a date block on the left and venue and price on the right.
    let y = Math.round(H * 0.1);
    if (presenter) {
      lines.push({ text: presenter, size: Math.round(body * 0.75), font: bodyFont, fill: pal.accent, x: margin, y, anchor: 'start' });
      y += gap(body);
    }
    y += title.size * 0.8;
    for (const t of title.lines) {
      lines.push({ text: t, size: title.size, font: titleFont, fill: pal.fg, x: margin, y, anchor: 'start' });
      y += gap(title.size);
    }
    y += Math.round(H * 0.08);
    const colW = Math.round(inner * 0.46);
    // The date block: each date line split at its separator so that it stacks in the column.
    const stacked = date.lines.flatMap((d) => (date.lines.length === 1 ? d.split(/\s+(?:·|\||@|at|-|\/)\s+|,\s+(?=\d+(?::\d+)?\s*[ap])/i) : [d]));
    const dSize = Math.round(body * 1.05);
    const per = dSize * bodyFont.em;
    const fits = stacked.every((s) => s.length * per <= colW - 20);
    const dateCol = fits ? stacked : date.lines;
    const blockH = dateCol.length * gap(dSize) + dSize * 0.8;
    if (fits) els.push(`<rect x="${margin - 12}" y="${y}" width="${colW}" height="${blockH}" fill="${pal.deco}"/>`);
    let dy = y + dSize * 1.2;
    for (const d of dateCol) {
      lines.push({ text: d, size: dSize, font: bodyFont, fill: fits ? pal.onDeco : pal.accent, x: margin, y: dy, anchor: 'start' });
      dy += gap(dSize);
    }
    const rx = fits ? margin + colW + 24 : margin;
    let ry = fits ? y + body * 1.2 : dy + body;
    const rightW = fits ? W - margin - rx : inner;
    for (const s of [rec.venue, price].filter((x): x is string => !!x)) {
      for (const part of wrap(s, Math.max(8, Math.floor(rightW / (body * 0.85 * bodyFont.em))))) {
        lines.push({ text: part, size: Math.round(body * 0.85), font: bodyFont, fill: pal.fg, x: rx, y: ry, anchor: 'start' });
        ry += gap(body * 0.85);
      }
    }
  }
  // Shrink any line that would run off the poster (estimated advance; capitals are wider).
  for (const l of lines) {
    const room = l.anchor === 'middle' ? W - 2 * margin : W - margin - l.x;
    const caps = l.text.replace(/[^A-Z]/g, '').length / Math.max(1, l.text.length);
    const est = l.text.length * l.font.em * (1 + 0.2 * caps) * l.size;
    if (est > room) l.size = Math.max(18, Math.floor((l.size * room) / est));
  }
  els.push(...lines.map(textEl));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${els.join('')}</svg>`;
  const rotate = Math.round((r.next() * 10 - 5) * 10) / 10;
  const blur = Math.round((0.5 + r.next() * 0.7) * 100) / 100;
  const quality = r.int(45, 80);
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const table = r.pick(['#8a8a8a', '#c9c2b4', '#4a4a4a', '#ffffff']);
  const rotated = rotate ? await sharp(png).rotate(rotate, { background: table }).png().toBuffer() : png;
  const jpeg = await sharp(rotated).blur(blur).jpeg({ quality }).toBuffer();
  return {
    jpeg,
    style: {
      layout,
      titleFont: titleFont.name,
      bodyFont: bodyFont.name,
      titleSize: title.size,
      palette: pal.name,
      dateStyle: date.style,
      dateText: date.lines.join(' / '),
      rotate,
      blur,
      quality,
      upper,
    },
  };
}

/** The `k`th day after NOW (at least minDays ahead) that falls on `weekday`, as a local date in TIME_ZONE. */
function futureDate(weekday: number, minDays: number): LocalDate {
  const today = wallClock(NOW, TIME_ZONE);
  const base = Date.UTC(today.y, today.m - 1, today.d) + minDays * 86_400_000;
  for (let i = 0; i < 7; i++) {
    const t = new Date(base + i * 86_400_000);
    if (t.getUTCDay() === weekday) return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate(), wd: weekday };
  }
  throw new Error('unreachable');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Picks FLYER_COUNT records (at most 10 per source, round robin) and renders them into `dir`. */
export async function makeFlyers(dir = mkdtempSync(join(tmpdir(), 'townbeat-flyers-')), count = FLYER_COUNT): Promise<{ dir: string; flyers: Flyer[]; candidates: number }> {
  mkdirSync(dir, { recursive: true });
  const records = loadRecords();
  const r = prng(SEED);
  const bySource = new Map<string, Record[]>();
  for (const rec of records) bySource.set(rec.source, [...(bySource.get(rec.source) ?? []), rec]);
  // Shuffle each source's records (Fisher-Yates with the seeded generator), then take them in turns.
  for (const list of bySource.values()) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = r.int(0, i);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
  }
  const picked: Record[] = [];
  const sources = [...bySource.keys()].sort();
  const PER_SOURCE = 10;
  for (let round = 0; picked.length < count && round < PER_SOURCE; round++) {
    for (const s of sources) {
      const rec = bySource.get(s)![round];
      if (rec && picked.length < count) picked.push(rec);
    }
  }
  if (picked.length < count) throw new Error(`only ${picked.length} usable fixture events (need ${count})`);
  const flyers: Flyer[] = [];
  for (const [i, rec] of picked.entries()) {
    const fr = prng(SEED * 1000 + i);
    const when = futureDate(rec.weekday, fr.int(3, 70));
    const { jpeg, style } = await renderFlyer(rec, when, fr);
    const id = `flyer-${pad(i + 1)}`;
    const file = join(dir, `${id}.jpg`);
    writeFileSync(file, jpeg);
    flyers.push({
      id,
      file,
      source: rec.source,
      truth: {
        title: rec.title,
        date: `${when.y}-${pad(when.m)}-${pad(when.d)}`,
        time: rec.minutes === null ? null : `${pad(Math.floor(rec.minutes / 60))}:${pad(rec.minutes % 60)}`,
        venue: rec.venue,
      },
      style,
    });
  }
  writeFileSync(join(dir, 'truth.json'), JSON.stringify({ now: NOW.toISOString(), timeZone: TIME_ZONE, flyers }, null, 2));
  return { dir, flyers, candidates: records.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!fixturesPresent()) {
    console.log(`make-flyers: the fixtures are absent (expected ics/, api/ and jsonld/ in ${FIXTURES_DIR}).`);
    process.exit(0);
  }
  const { dir, flyers, candidates } = await makeFlyers(process.argv[2]);
  console.log(`${flyers.length} flyers from ${candidates} usable fixture events in ${dir}`);
}
