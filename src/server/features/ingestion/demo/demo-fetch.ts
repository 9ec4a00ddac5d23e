// The demo city's feeds: real-format files written by us (demo/feeds/), served to the ordinary
// connectors under demo:// URLs with every date moved by whole weeks into the coming weeks, so
// a new install shows a living city without touching the network (decisions section 8).

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wallClock } from '../../../../contract/time.ts';
import type { FetchResult, SafeFetch, SafeFetchInit } from '../ingestion.types.ts';

/** The Monday that starts the six-week window the demo files are written in (2026-01-05 .. 2026-02-15). */
export const DEMO_BASE_MONDAY = '2026-01-05';

export const DEMO_URL_PREFIX = 'demo://feeds/';

/** <repo>/demo/feeds, from this file's place in src/server/features/ingestion/demo/. */
export const DEFAULT_DEMO_DIR = fileURLToPath(new URL('../../../../../demo/feeds/', import.meta.url));

/**
 * Where the demo feeds' pictures live: the demo's own (non-existent) web address, so the feeds
 * name them as any source names its images (an absolute http(s) URL, or a path relative to the
 * page), and the demo reader answers them from <repo>/demo/images without touching the network.
 */
export const DEMO_IMAGE_URL_PREFIX = 'https://demo.townbeat.local/images/demo/';
export const DEFAULT_DEMO_IMAGE_DIR = fileURLToPath(new URL('../../../../../demo/images/', import.meta.url));
/** Whether an image address is one of the demo's own pictures (invented Townbeat content). */
export const isDemoImageUrl = (url: string) => url.startsWith(DEMO_IMAGE_URL_PREFIX);

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar date (no zone: pure calendar arithmetic). */
const dayNumber = (y: number, m: number, d: number) => Math.round(Date.UTC(y, m - 1, d) / DAY_MS);

function parseIsoDate(s: string): { y: number; m: number; d: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) throw new Error(`not a YYYY-MM-DD date: ${s}`);
  return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
}

/**
 * Whole weeks from the base Monday to the Monday of the week `now` falls in, on the zone's
 * calendar: shifting by this many weeks puts the demo window's first week on the current week.
 */
export function weeksToShift(now: Date, timeZone: string): number {
  const w = wallClock(now, timeZone);
  const today = dayNumber(w.year, w.month, w.day);
  // Day 0 (1970-01-01) was a Thursday; make Monday 0 .. Sunday 6.
  const weekday = (((today + 3) % 7) + 7) % 7;
  const monday = today - weekday;
  const base = parseIsoDate(DEMO_BASE_MONDAY);
  return Math.round((monday - dayNumber(base.y, base.m, base.d)) / 7);
}

/** The calendar date `days` after y-m-d, or null when y-m-d is not a real date. */
function addDays(y: number, m: number, d: number, days: number): { y: number; m: number; d: number } | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  t.setUTCDate(t.getUTCDate() + days);
  const ny = t.getUTCFullYear();
  if (ny < 1000 || ny > 9999) return null;
  return { y: ny, m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** ICS basic-format dates (YYYYMMDD, also the date part of YYYYMMDDTHHMMSS[Z]). */
const BASIC_DATE = /(?<!\d)(\d{4})(\d{2})(\d{2})(?=T\d{6}|(?!\d))/g;
/** ISO 8601 extended dates (YYYY-MM-DD, alone or before THH:MM / ' HH:MM'). */
const ISO_DATE = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?![\d])/g;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** RFC 822 dates (RSS pubDate): "Mon, 15 Dec 2025". Whole weeks keep the weekday right. */
const RFC822_DATE = /\b(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4})\b/g;

function shiftBasic(value: string, days: number): string {
  return value.replace(BASIC_DATE, (all, y: string, m: string, d: string) => {
    const r = addDays(Number(y), Number(m), Number(d), days);
    return r ? `${r.y}${p2(r.m)}${p2(r.d)}` : all;
  });
}

function shiftIso(text: string, days: number): string {
  return text.replace(ISO_DATE, (all, y: string, m: string, d: string) => {
    const r = addDays(Number(y), Number(m), Number(d), days);
    return r ? `${r.y}-${p2(r.m)}-${p2(r.d)}` : all;
  });
}

function shiftRfc822(text: string, days: number): string {
  return text.replace(RFC822_DATE, (all, d: string, mon: string, y: string) => {
    const r = addDays(Number(y), MONTHS.indexOf(mon) + 1, Number(d), days);
    return r ? `${d.length === 2 ? p2(r.d) : r.d} ${MONTHS[r.m - 1]} ${r.y}` : all;
  });
}

/** ICS properties whose values are event dates; DTSTAMP, CREATED and LAST-MODIFIED are not. */
const ICS_DATE_PROPS = new Set(['DTSTART', 'DTEND', 'DUE', 'RDATE', 'EXDATE', 'RECURRENCE-ID']);
const ICS_RULE_PROPS = new Set(['RRULE', 'EXRULE']);

/** Index of the ':' that ends an ICS property's name and parameters (quoted parameters may hold ':'). */
function valueStart(line: string): number {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) return i;
  }
  return -1;
}

/** Shifts one unfolded ICS content line; `inTimezone` leaves VTIMEZONE definitions alone. */
function shiftIcsLine(line: string, days: number, inTimezone: boolean): string {
  const colon = valueStart(line);
  if (colon < 0 || inTimezone) return line;
  const name = (/^[A-Za-z0-9-]+/.exec(line)?.[0] ?? '').toUpperCase();
  const head = line.slice(0, colon + 1);
  const value = line.slice(colon + 1);
  if (ICS_DATE_PROPS.has(name)) return head + shiftBasic(value, days);
  if (ICS_RULE_PROPS.has(name)) {
    return head + value.replace(/(UNTIL=)([0-9TZ]+)/i, (_all, key: string, v: string) => key + shiftBasic(v, days));
  }
  return line;
}

/**
 * ICS parts of a text: each logical (unfolded) content line is shifted, and the result is put
 * back with the folds where they were (shifting never changes a date's length).
 */
function shiftIcs(text: string, days: number): string {
  const parts = text.split(/(\r\n|\n|\r)/);
  // parts: line, sep, line, sep, ..., line
  const out: string[] = [];
  let timezoneDepth = 0;
  let i = 0;
  while (i < parts.length) {
    // Gather one logical line: the first physical line and the continuation lines after it.
    const pieces: string[] = [parts[i] ?? ''];
    const seps: string[] = [];
    let j = i + 2;
    while (j < parts.length && /^[ \t]/.test(parts[j] ?? '')) {
      seps.push(parts[j - 1] ?? '');
      pieces.push(parts[j] ?? '');
      j += 2;
    }
    const logical = pieces[0] + pieces.slice(1).map((p) => p.slice(1)).join('');
    const upper = logical.trim().toUpperCase();
    if (upper === 'BEGIN:VTIMEZONE') timezoneDepth += 1;
    const shifted = shiftIcsLine(logical, days, timezoneDepth > 0);
    if (upper === 'END:VTIMEZONE' && timezoneDepth > 0) timezoneDepth -= 1;

    if (shifted === logical) {
      out.push(pieces.map((p, k) => (k === 0 ? p : `${seps[k - 1] ?? ''}${p}`)).join(''));
    } else if (pieces.length === 1 || shifted.length !== logical.length) {
      out.push(shifted);
    } else {
      // Re-fold at the same places: a shifted date keeps its length.
      let pos = 0;
      for (let k = 0; k < pieces.length; k++) {
        const piece = pieces[k] ?? '';
        const len = k === 0 ? piece.length : piece.length - 1;
        const chunk = shifted.slice(pos, pos + len);
        pos += len;
        out.push(k === 0 ? chunk : `${seps[k - 1] ?? ''}${piece[0] ?? ' '}${chunk}`);
      }
    }
    if (j - 1 < parts.length) out.push(parts[j - 1] ?? '');
    i = j;
  }
  return out.join('');
}

/**
 * Moves every date in a demo file by `weeks` whole weeks, keeping times of day and formats:
 * ICS basic dates in DTSTART, DTEND, DUE, RDATE, EXDATE, RECURRENCE-ID and RRULE UNTIL (not
 * DTSTAMP, CREATED, LAST-MODIFIED, nor anything inside VTIMEZONE); ISO dates (YYYY-MM-DD, with or
 * without a time) and RFC 822 dates anywhere else.
 */
export function shiftDemoDates(text: string, weeks: number): string {
  const days = Math.trunc(weeks) * 7;
  if (days === 0) return text;
  const looksIcs = /^(BEGIN|DTSTART|DTEND|RDATE|EXDATE|RRULE|RECURRENCE-ID)[;:]/im.test(text);
  const afterIcs = looksIcs ? shiftIcs(text, days) : text;
  return shiftRfc822(shiftIso(afterIcs, days), days);
}

const CONTENT_TYPES: Record<string, string> = {
  ics: 'text/calendar; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
};
const FILE_NAME = /^[a-z0-9-]+\.(ics|csv|html|rss|xml|json)$/;
const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
const IMAGE_NAME = /^[a-z0-9-]+\.(jpg|png|webp)$/;

function result(status: number, url: string, headers: Record<string, string>, body: Buffer): FetchResult {
  return { status, url, headers, body, text: () => body.toString('utf8') };
}

function header(init: SafeFetchInit | undefined, name: string): string | undefined {
  for (const [k, v] of Object.entries(init?.headers ?? {})) if (k.toLowerCase() === name) return v;
  return undefined;
}

export interface DemoFetchOptions {
  /** Folder holding the demo feeds; default <repo>/demo/feeds. */
  dir?: string;
  /** Folder holding the demo's pictures; default <repo>/demo/images. */
  imageDir?: string;
  now: () => Date;
  timeZone: string;
  /** Where every URL that is not demo://feeds/... goes. */
  next: SafeFetch;
}

/** The demo's pictures, byte for byte, as a web server would send them. */
async function demoImage(url: string, dir: string): Promise<FetchResult> {
  const name = url.slice(DEMO_IMAGE_URL_PREFIX.length).split(/[?#]/)[0] ?? '';
  const notFound = () => result(404, url, { 'content-type': 'text/plain; charset=utf-8' }, Buffer.from('not found'));
  if (!IMAGE_NAME.test(name)) return notFound();
  let body: Buffer;
  try {
    body = await readFile(join(dir, name));
  } catch {
    return notFound();
  }
  const ext = name.slice(name.lastIndexOf('.') + 1);
  return result(200, url, { 'content-type': IMAGE_TYPES[ext] ?? 'application/octet-stream', 'cache-control': 'max-age=86400' }, body);
}

/**
 * A SafeFetch that answers demo://feeds/<file> from the demo folder, dates shifted, and the
 * demo's pictures (DEMO_IMAGE_URL_PREFIX) from demo/images; it passes the rest on.
 */
export function createDemoFetch(opts: DemoFetchOptions): SafeFetch {
  const dir = opts.dir ?? DEFAULT_DEMO_DIR;
  const imageDir = opts.imageDir ?? DEFAULT_DEMO_IMAGE_DIR;
  return async (url, init) => {
    if (isDemoImageUrl(url)) return demoImage(url, imageDir);
    if (!url.startsWith(DEMO_URL_PREFIX)) return opts.next(url, init);
    const name = url.slice(DEMO_URL_PREFIX.length).split(/[?#]/)[0] ?? '';
    const notFound = () => result(404, url, { 'content-type': 'text/plain; charset=utf-8' }, Buffer.from('not found'));
    if (name.includes('/') || name.includes('..') || !FILE_NAME.test(name)) return notFound();
    let raw: string;
    try {
      raw = await readFile(join(dir, name), 'utf8');
    } catch {
      return notFound();
    }
    const body = Buffer.from(shiftDemoDates(raw, weeksToShift(opts.now(), opts.timeZone)), 'utf8');
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;
    const ext = name.slice(name.lastIndexOf('.') + 1);
    const headers = { 'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream', etag, 'cache-control': 'no-cache' };
    if (header(init, 'if-none-match') === etag) return result(304, url, headers, Buffer.alloc(0));
    return result(200, url, headers, body);
  };
}

export type DemoConnector = 'ical' | 'rss' | 'jsonld' | 'csv';

export interface DemoSource {
  name: string;
  connector: DemoConnector;
  url: string;
  sourceType: string;
  trusted: true;
  intervalMinutes: number;
  config: Record<string, unknown>;
}

/** The demo city's sources, one per file in demo/feeds/. */
export const DEMO_SOURCES: readonly DemoSource[] = [
  {
    name: 'PDX Music Venues (demo)',
    connector: 'ical',
    url: `${DEMO_URL_PREFIX}pdx-music-venues.ics`,
    sourceType: 'ical',
    trusted: true,
    intervalMinutes: 15,
    config: {},
  },
  {
    name: 'PDX Arts Calendar (demo)',
    connector: 'ical',
    url: `${DEMO_URL_PREFIX}pdx-arts-calendar.ics`,
    sourceType: 'ical',
    trusted: true,
    intervalMinutes: 15,
    config: {},
  },
  {
    name: 'PDX Parks & Recreation (demo)',
    connector: 'csv',
    url: `${DEMO_URL_PREFIX}pdx-parks-and-rec.csv`,
    sourceType: 'municipal',
    trusted: true,
    intervalMinutes: 15,
    config: {
      mapping: {
        id: 'event_id',
        title: 'title',
        start: 'start',
        end: 'end',
        venue: 'park',
        address: 'address',
        description: 'description',
        price: 'cost',
        lat: 'latitude',
        lng: 'longitude',
      },
      dateFormat: 'iso',
    },
  },
  {
    name: 'PDX Food & Markets (demo)',
    connector: 'jsonld',
    url: `${DEMO_URL_PREFIX}pdx-food-and-markets.html`,
    sourceType: 'web',
    trusted: true,
    intervalMinutes: 15,
    config: {},
  },
  {
    name: 'PDX Community News (demo)',
    connector: 'rss',
    url: `${DEMO_URL_PREFIX}pdx-community-news.rss`,
    sourceType: 'rss',
    trusted: true,
    intervalMinutes: 15,
    config: {},
  },
  {
    name: 'PDX Tech & Business Meetups (demo)',
    connector: 'ical',
    url: `${DEMO_URL_PREFIX}pdx-tech-and-business.ics`,
    sourceType: 'meetup',
    trusted: true,
    intervalMinutes: 15,
    config: {},
  },
];
