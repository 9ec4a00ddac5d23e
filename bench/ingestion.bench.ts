// Ingestion benchmark: a large generated iCalendar corpus and a JSON-LD corpus (web pages with
// schema.org Events in @graph), served over real HTTP on 127.0.0.1 and run through the app's own
// pipeline (fetch, parse in the sandbox, normalise, dedupe, classify, store in one transaction)
// with app.ingest.service.runSource, on the embedded database and on PostgreSQL. Then freshness
// (a changed feed item to its event_update, with the real scheduler on a scaled interval).
// Deduplication quality is measured in bench/dedup.bench.ts.
//
//   node --import tsx bench/ingestion.bench.ts [--only pglite|postgres] [--ics N] [--jsonld N]
//        [--page N] [--skip-freshness] [--unit-seconds S] [--changes N] [--fresh-ics N] [--skip-changed]
//
// PostgreSQL: BENCH_DATABASE_URL, or by default postgres://postgres@127.0.0.1:5432/test when a
// server answers there. A fresh database townbeat_bench_<random> is created and dropped.
// Everything is generated from fixed seeds; dates are relative to now (the next 90 days).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { PORTLAND } from '../src/server/city.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { classify } from '../src/server/features/ingestion/classifier/classifier.ts';
import { CONNECTORS } from '../src/server/features/ingestion/connectors/index.ts';
import { createSafeFetch } from '../src/server/features/ingestion/fetch/safe-fetch.ts';
import { type RunSummary } from '../src/server/features/ingestion/ingestion.service.ts';
import type { CandidateEvent, Connector, SafeFetch } from '../src/server/features/ingestion/ingestion.types.ts';
import { closeSharedSandbox } from '../src/server/features/ingestion/parse/sandbox.ts';
import { normalise, venueKey, type KnownVenues, type NormalisedEvent } from '../src/server/features/ingestion/pipeline/normalise.ts';
import { startFeedServer, type Route } from '../src/server/test/feed-server.ts';
import { fold, makeApp, postgresUrl, prng, rowsOf, VTIMEZONE, withBenchDatabase } from './lib.ts';

// ---------------------------------------------------------------- options

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}
const has = (name: string) => process.argv.includes(`--${name}`);
const ONLY = flag('only') as 'pglite' | 'postgres' | undefined;
const ICS_EVENTS = Number(flag('ics') ?? 30_000);
const JSONLD_EVENTS = Number(flag('jsonld') ?? 20_000);
const PAGE_EVENTS = Number(flag('page') ?? 200);
const SKIP_FRESHNESS = has('skip-freshness');
const SKIP_CHANGED = has('skip-changed');
const UNIT_SECONDS = Number(flag('unit-seconds') ?? 10);
const CHANGES = Number(flag('changes') ?? 20);
const FRESH_EVENTS = Number(flag('fresh-ics') ?? 2_000);
const TARGET_PER_MIN = 50_000;
/** Feeds are split so that none comes near the fetcher's 10 MB cap. */
const MAX_FEED_BYTES = 8 * 1024 * 1024;
/** Share of JSON-LD events that are another listing of an ICS event (they should merge). */
const OVERLAP = 0.1;
/** Share of events whose title changes before the third run. */
const CHANGED_SHARE = 0.1;
if (ONLY && ONLY !== 'pglite' && ONLY !== 'postgres') throw new Error('--only must be pglite or postgres');
for (const [k, v] of Object.entries({ ics: ICS_EVENTS, jsonld: JSONLD_EVENTS, page: PAGE_EVENTS, 'unit-seconds': UNIT_SECONDS, changes: CHANGES, 'fresh-ics': FRESH_EVENTS })) {
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${k} must be a number >= 0`);
}

// ---------------------------------------------------------------- seeded generation

const CATEGORIES = ['Music', 'Food', 'Arts', 'Wellness', 'Sports', 'Tech', 'Business', 'Other'] as const;
type Category = (typeof CATEGORIES)[number];
const TOPICS: Record<Category, { subjects: string[]; formats: string[]; words: string[]; type: string }> = {
  Music: {
    subjects: ['Jazz', 'Blues', 'Indie Rock', 'Folk', 'Hip-Hop', 'Symphony', 'Open Mic', 'DJ', 'Karaoke', 'Choir', 'Punk', 'Bluegrass'],
    formats: ['Night', 'Showcase', 'Session', 'Concert', 'Jam', 'Live', 'Festival'],
    words: ['music', 'band', 'stage', 'songs', 'guitar', 'vinyl', 'dance', 'live'],
    type: 'MusicEvent',
  },
  Food: {
    subjects: ['Farmers', 'Taco', 'Brunch', 'Wine', 'Craft Beer', 'Food Cart', 'Pizza', 'Vegan', 'Coffee', 'Ramen', 'Cider'],
    formats: ['Market', 'Tasting', 'Pop-Up', 'Festival', 'Crawl', 'Supper', 'Class'],
    words: ['food', 'local', 'chefs', 'tasting', 'menu', 'seasonal', 'kitchen', 'brewery'],
    type: 'FoodEvent',
  },
  Arts: {
    subjects: ['Pottery', 'Gallery', 'Poetry', 'Film', 'Theater', 'Painting', 'Photography', 'Comedy', 'Printmaking', 'Dance'],
    formats: ['Opening', 'Workshop', 'Night', 'Screening', 'Reading', 'Show', 'Class'],
    words: ['art', 'artists', 'gallery', 'studio', 'creative', 'exhibit', 'paint', 'craft'],
    type: 'VisualArtsEvent',
  },
  Wellness: {
    subjects: ['Yoga', 'Meditation', 'Tai Chi', 'Breathwork', 'Pilates', 'Sound Bath', 'Mindfulness', 'Forest Walk'],
    formats: ['Class', 'Retreat', 'Session', 'Circle', 'Workshop', 'Morning'],
    words: ['wellness', 'health', 'calm', 'breathing', 'mats', 'mind', 'body', 'relax'],
    type: 'Event',
  },
  Sports: {
    subjects: ['Trail Run', 'Soccer', 'Basketball', 'Cycling', 'Climbing', 'Kayak', 'Marathon', 'Pickleball', 'Roller Derby', 'Ultimate'],
    formats: ['Meetup', 'League', 'Race', 'Clinic', 'Tournament', 'Training'],
    words: ['sports', 'team', 'game', 'fitness', 'players', 'race', 'court', 'outdoor'],
    type: 'SportsEvent',
  },
  Tech: {
    subjects: ['JavaScript', 'Python', 'Startup', 'AI', 'Open Source', 'Data Science', 'Hackathon', 'Rust', 'Design Systems', 'Cloud'],
    formats: ['Meetup', 'Workshop', 'Talk', 'Demo Night', 'Hack Night', 'Conference'],
    words: ['tech', 'software', 'developers', 'code', 'talks', 'laptops', 'demos', 'engineers'],
    type: 'EducationEvent',
  },
  Business: {
    subjects: ['Networking', 'Small Business', 'Founders', 'Marketing', 'Real Estate', 'Women in Business', 'Nonprofit', 'Investor'],
    formats: ['Breakfast', 'Mixer', 'Panel', 'Seminar', 'Luncheon', 'Roundtable'],
    words: ['business', 'networking', 'entrepreneurs', 'growth', 'career', 'leaders', 'professionals', 'panel'],
    type: 'BusinessEvent',
  },
  Other: {
    subjects: ['Trivia', 'Book Club', 'Board Game', 'Volunteer', 'Garden', 'Neighborhood', 'Library', 'Swap', 'Cleanup', 'History'],
    formats: ['Night', 'Meetup', 'Day', 'Walk', 'Social', 'Gathering'],
    words: ['community', 'neighbors', 'volunteers', 'families', 'books', 'games', 'friends', 'park'],
    type: 'SocialEvent',
  },
};
const ADJECTIVES = ['Community', 'Sunset', 'Downtown', 'Weekly', 'Family', 'Late Night', 'Rose City', 'Monthly', 'Summer', 'Beginner', 'Neighborhood', 'All-Ages'];
const PERFORMERS = ['the Blue Trio', 'DJ Marisol', 'Kat Ortega', 'the Alder Street Band', 'Sam Whitfield', 'the Foggy Notion', 'Priya Raman', 'Jonah Feld', 'Los Cascadas', 'the Lucky Strings'];
const GENERAL = (
  'join us for an evening of with friends and neighbors all ages welcome bring your own tickets at the door doors open ' +
  'early registration recommended limited space snacks provided drinks available accessible venue parking nearby transit ' +
  'hosted by our local team every week new faces always welcome no experience needed learn share meet enjoy celebrate'
).split(' ');
const VENUE_FIRST = ['Blue', 'Old', 'Red', 'Rose City', 'Willamette', 'Burnside', 'Alder', 'Lucky', 'Green', 'Union', 'Cascade', 'Laurel', 'Foggy', 'Iron', 'Hawthorne', 'Alberta'];
const VENUE_SECOND = ['Hall', 'Theater', 'Lounge', 'Brewery', 'Park', 'Library', 'Studio', 'Community Center', 'Cafe', 'Taproom', 'Gallery', 'Arena', 'Commons', 'Pavilion'];
const STREETS = ['SE Hawthorne Blvd', 'NE Alberta St', 'SW Broadway', 'N Mississippi Ave', 'NW 23rd Ave', 'SE Division St', 'NE Sandy Blvd', 'SE Foster Rd', 'N Lombard St', 'SW Naito Pkwy'];
const LA = 'America/Los_Angeles';

interface Venue {
  name: string;
  street: string;
  zip: string;
  lat: number;
  lng: number;
}

function generateVenues(n: number): Venue[] {
  const r = prng(7);
  const names = new Set<string>();
  const out: Venue[] = [];
  while (out.length < n) {
    let name = `${r.next() < 0.25 ? 'The ' : ''}${r.pick(VENUE_FIRST)} ${r.pick(VENUE_SECOND)}`;
    if (names.has(venueKey(name.replace(/^The /, '')))) name = `${name} ${r.pick(['North', 'South', 'East', 'West', 'Annex', 'Two'])}`;
    if (names.has(venueKey(name.replace(/^The /, '')))) continue;
    names.add(venueKey(name.replace(/^The /, '')));
    const h = r.pick(PORTLAND.neighbourhoods);
    out.push({
      name,
      street: `${r.int(100, 9999)} ${r.pick(STREETS)}`,
      zip: `972${String(r.int(1, 66)).padStart(2, '0')}`,
      lat: Math.round((h.lat + (r.next() - 0.5) * 0.02) * 1e6) / 1e6,
      lng: Math.round((h.lng + (r.next() - 0.5) * 0.03) * 1e6) / 1e6,
    });
  }
  return out;
}

const ymd = new Intl.DateTimeFormat('en-CA', { timeZone: LA, year: 'numeric', month: '2-digit', day: '2-digit' });
/** The Portland calendar date `days` after today, as YYYYMMDD. */
function laDay(days: number): string {
  const parts = Object.fromEntries(ymd.formatToParts(new Date(Date.now() + days * 86_400_000)).map((p) => [p.type, p.value]));
  return `${parts.year}${parts.month}${parts.day}`;
}

interface GenEvent {
  uid: string;
  title: string;
  description: string;
  category: Category;
  venue: Venue;
  /** Portland wall clock: YYYYMMDD, HHMM start and end (same day). */
  day: string;
  start: string;
  end: string;
  url: string;
  price: number | null;
  /** Weekly occurrences (RRULE COUNT), or 0 for a single event. */
  weekly: number;
}

function generateEvents(seed: number, target: number, prefix: string, venues: Venue[], opts: { recurringShare: number }): GenEvent[] {
  const r = prng(seed);
  const days = Array.from({ length: 91 }, (_, i) => laDay(i));
  const out: GenEvent[] = [];
  let produced = 0;
  for (let i = 0; produced < target; i++) {
    const category = r.pick(CATEGORIES);
    const t = TOPICS[category];
    const parts: string[] = [];
    if (r.next() < 0.35) parts.push(r.pick(ADJECTIVES));
    parts.push(r.pick(t.subjects), r.pick(t.formats));
    if (r.next() < 0.3) parts.push(`with ${r.pick(PERFORMERS)}`);
    const words: string[] = [];
    for (let w = r.int(12, 30); w > 0; w--) words.push(r.next() < 0.3 ? r.pick(t.words) : r.pick(GENERAL));
    const venue = r.pick(venues);
    const weekly = produced + 8 <= target && r.next() < opts.recurringShare ? 8 : 0;
    const hour = r.int(9, 21);
    const minute = r.pick([0, 15, 30, 45]);
    const endHour = Math.min(23, hour + r.int(1, 3));
    out.push({
      uid: `${prefix}-${String(i).padStart(6, '0')}@bench.townbeat.example`,
      title: parts.join(' '),
      description: `${words.join(' ')}. In ${venue.name}, Portland.`,
      category,
      venue,
      day: days[r.int(1, weekly ? 34 : 90)]!,
      start: `${String(hour).padStart(2, '0')}${String(minute).padStart(2, '0')}`,
      end: `${String(endHour).padStart(2, '0')}${String(minute).padStart(2, '0')}`,
      url: `https://tickets.example.org/${prefix}/${i}`,
      price: r.next() < 0.4 ? null : r.int(5, 80),
      weekly,
    });
    produced += weekly || 1;
  }
  return out;
}

// ---------------------------------------------------------------- iCalendar and JSON-LD

const icsText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
/** RFC 5545 folding at 75 octets (the text here is ASCII). */
function vevent(e: GenEvent): string {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    'DTSTAMP:20250101T000000Z',
    `DTSTART;TZID=${LA}:${e.day}T${e.start}00`,
    `DTEND;TZID=${LA}:${e.day}T${e.end}00`,
    ...(e.weekly ? [`RRULE:FREQ=WEEKLY;COUNT=${e.weekly}`] : []),
    `SUMMARY:${icsText(e.title)}`,
    `DESCRIPTION:${icsText(e.description)}`,
    `LOCATION:${icsText(`${e.venue.name}, ${e.venue.street}, Portland, OR ${e.venue.zip}`)}`,
    `GEO:${e.venue.lat};${e.venue.lng}`,
    `URL:${e.url}`,
    `CATEGORIES:${e.category}`,
    'END:VEVENT',
  ];
  return lines.map(fold).join('\r\n');
}

/**
 * Packs the events into feeds of at most MAX_FEED_BYTES each; `counts` (events per feed) keeps
 * a changed corpus in the same feeds as the original.
 */
function icsFeeds(events: GenEvent[], name: string, counts?: number[]): Buffer[] {
  const head = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:-//Townbeat bench//${name}//EN`, 'CALSCALE:GREGORIAN', `X-WR-CALNAME:${name}`, `X-WR-TIMEZONE:${LA}`, ...VTIMEZONE].join('\r\n');
  const feeds: Buffer[] = [];
  let body: string[] = [];
  let size = head.length;
  const flush = () => {
    if (body.length) feeds.push(Buffer.from(`${head}\r\n${body.join('\r\n')}\r\nEND:VCALENDAR\r\n`, 'utf8'));
    body = [];
    size = head.length;
  };
  for (const e of events) {
    const v = vevent(e);
    if (counts ? body.length >= (counts[feeds.length] ?? Infinity) : size + v.length + 20 > MAX_FEED_BYTES) flush();
    body.push(v);
    size += v.length + 2;
  }
  flush();
  return feeds;
}
const veventsIn = (feed: Buffer) => feed.toString('latin1').split('BEGIN:VEVENT').length - 1;

const isoLocal = (day: string, hhmm: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}T${hhmm.slice(0, 2)}:${hhmm.slice(2)}:00`;

function jsonLdEvent(e: GenEvent) {
  return {
    '@type': TOPICS[e.category].type,
    '@id': e.url,
    name: e.title,
    description: e.description,
    startDate: isoLocal(e.day, e.start),
    endDate: isoLocal(e.day, e.end),
    url: e.url,
    image: `${e.url}/cover.jpg`,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: {
      '@type': 'Place',
      name: e.venue.name,
      address: { '@type': 'PostalAddress', streetAddress: e.venue.street, addressLocality: 'Portland', addressRegion: 'OR', postalCode: e.venue.zip, addressCountry: 'US' },
      geo: { '@type': 'GeoCoordinates', latitude: e.venue.lat, longitude: e.venue.lng },
    },
    offers: e.price === null ? { '@type': 'Offer', price: '0', priceCurrency: 'USD' } : { '@type': 'Offer', price: e.price.toFixed(2), priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    organizer: { '@type': 'Organization', name: 'Portland Listings', url: 'https://listings.example.org' },
  };
}

function jsonLdPage(events: GenEvent[], n: number): Buffer {
  const graph = JSON.stringify({ '@context': 'https://schema.org', '@graph': events.map(jsonLdEvent) }).replace(/<\//g, '<\\/');
  const items = events.map((e) => `<li><a href="${e.url}">${e.title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</a> ${isoLocal(e.day, e.start)}</li>`).join('\n');
  return Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portland listings, page ${n}</title>\n<script type="application/ld+json">${graph}</script>\n</head><body><h1>What's on in Portland</h1><ul>\n${items}\n</ul></body></html>`,
    'utf8',
  );
}

/** Another listing of the same event: the title as another site would write it. */
function relist(e: GenEvent, r: ReturnType<typeof prng>, i: number): GenEvent {
  const variants = [
    (t: string) => `${t} at ${e.venue.name.replace(/^The /, '')}`,
    (t: string) => t.toUpperCase(),
    (t: string) => `${t}!`,
    (t: string) => t.replace(/ with /, ' feat. '),
  ];
  return { ...e, uid: `relisted-${i}`, title: r.pick(variants)(e.title), url: `https://listings.example.org/e/${i}` };
}

// ---------------------------------------------------------------- instrumentation

interface DbTotals {
  ms: number;
  n: number;
  byKind: Map<string, { ms: number; n: number }>;
  /** First start and last end of the realtime NOTIFY statements. */
  notifyFrom: number;
  notifyTo: number;
}
const dbTotals: DbTotals = { ms: 0, n: 0, byKind: new Map(), notifyFrom: Infinity, notifyTo: -Infinity };
function resetDb() {
  dbTotals.ms = 0;
  dbTotals.n = 0;
  dbTotals.byKind = new Map();
  dbTotals.notifyFrom = Infinity;
  dbTotals.notifyTo = -Infinity;
}
function kindOf(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (t.startsWith('select pg_notify')) return 'pg_notify (realtime fan-out)';
  if (t.startsWith('select pg_advisory')) return 'advisory lock';
  if (/^(begin|commit|rollback)/.test(t)) return 'begin/commit';
  let m = /^insert into "?(\w+)"?/.exec(t);
  if (m) return `insert ${m[1]}`;
  m = /^update "?(\w+)"? set (.{0,40})/.exec(t);
  if (m) return m[1] === 'event_sources' ? 'update event_sources (seen)' : m[1] === 'events' && m[2]!.startsWith('gone_at') ? 'update events (mark gone)' : `update ${m[1]}`;
  m = /^select .*? from "?(\w+)"?(.*)$/.exec(t);
  if (m) {
    const where = m[2] ?? '';
    if (m[1] === 'events' && /start_date/.test(where)) return 'select events by start window';
    if (m[1] === 'events' && /"id" in|= any/.test(where)) return 'select events by id';
    return `select ${m[1]}`;
  }
  return t.slice(0, 40);
}
function record(text: string, ms: number) {
  const k = kindOf(text);
  if (!k.startsWith('pg_notify')) {
    dbTotals.ms += ms;
    dbTotals.n += 1;
  } else {
    const end = performance.now();
    dbTotals.notifyFrom = Math.min(dbTotals.notifyFrom, end - ms);
    dbTotals.notifyTo = Math.max(dbTotals.notifyTo, end);
  }
  const s = dbTotals.byKind.get(k) ?? { ms: 0, n: 0 };
  s.ms += ms;
  s.n += 1;
  dbTotals.byKind.set(k, s);
}
const textOf = (q: unknown): string => (typeof q === 'string' ? q : q && typeof q === 'object' && 'text' in q ? String((q as { text: unknown }).text) : '');

type AnyFn = (...args: unknown[]) => unknown;
/** Times every statement a pg client runs (the pool's clients included), callback or promise. */
function instrumentPg() {
  const proto = pg.Client.prototype as unknown as { query: AnyFn; __benched?: boolean };
  if (proto.__benched) return;
  proto.__benched = true;
  const orig = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const text = textOf(args[0]);
    const t0 = performance.now();
    const cb = args.findIndex((a) => typeof a === 'function');
    if (cb >= 0) {
      const fn = args[cb] as AnyFn;
      args[cb] = (...r: unknown[]) => {
        record(text, performance.now() - t0);
        return fn(...r);
      };
      return orig.apply(this, args);
    }
    const out = orig.apply(this, args);
    if (out && typeof (out as Promise<unknown>).then === 'function') {
      return (out as Promise<unknown>).then(
        (v) => (record(text, performance.now() - t0), v),
        (e: unknown) => {
          record(text, performance.now() - t0);
          throw e;
        },
      );
    }
    return out;
  };
}
/** The same for the embedded database: its query/exec, and those of its transactions. */
function instrumentPglite(p: PGlite) {
  const wrap = (obj: object, name: 'query' | 'exec') => {
    const o = obj as Record<string, AnyFn>;
    const orig = o[name]!.bind(obj);
    o[name] = async (...args: unknown[]) => {
      const t0 = performance.now();
      try {
        return await (orig(...args) as Promise<unknown>);
      } finally {
        record(textOf(args[0]), performance.now() - t0);
      }
    };
  };
  wrap(p, 'query');
  wrap(p, 'exec');
  const o = p as unknown as Record<string, AnyFn>;
  const origTx = o.transaction!.bind(p);
  o.transaction = (fn: unknown) =>
    origTx(async (tx: object) => {
      wrap(tx, 'query');
      wrap(tx, 'exec');
      return (fn as (tx: object) => Promise<unknown>)(tx);
    });
}

/** Fetch and connector (fetch + parse) time, and the candidates of a run when asked. */
const phase = { fetchMs: 0, connectorMs: 0, capture: null as CandidateEvent[] | null, fetches: [] as { url: string; at: number }[] };
function timedFetch(inner: SafeFetch): SafeFetch {
  return async (url, init) => {
    const t0 = performance.now();
    try {
      return await inner(url, init);
    } finally {
      phase.fetchMs += performance.now() - t0;
      phase.fetches.push({ url, at: performance.now() });
    }
  };
}
for (const id of ['ical', 'jsonld'] as const) {
  const c = CONNECTORS[id] as Connector;
  const run = c.run.bind(c);
  c.run = async (source, ctx) => {
    const t0 = performance.now();
    try {
      const result = await run(source, ctx);
      if (phase.capture) phase.capture.push(...result.candidates);
      return result;
    } finally {
      phase.connectorMs += performance.now() - t0;
    }
  };
}

// ---------------------------------------------------------------- helpers

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const perMin = (n: number, ms: number) => (ms > 0 ? (n / ms) * 60_000 : 0);
function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * CPU time so far: this process (main thread, parse workers and, on PGlite, the database), and
 * on PostgreSQL each server backend of the bench database by pid (read from /proc: the server
 * runs on this machine). Wall time on a shared machine depends on what else runs; CPU time less so.
 */
async function cpuNow(database: Database): Promise<{ node: number; pg: Map<number, number> }> {
  const u = process.cpuUsage();
  const pg = new Map<number, number>();
  if (database.pool) {
    const pids = (await database.pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()')).rows;
    for (const { pid } of pids) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        pg.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / 100);
      } catch {
        // not on this machine, or gone
      }
    }
  }
  return { node: (u.user + u.system) / 1000, pg };
}
function cpuSince(a: Awaited<ReturnType<typeof cpuNow>>, b: Awaited<ReturnType<typeof cpuNow>>) {
  let pgMs = 0;
  for (const [pid, ms] of b.pg) pgMs += ms - (a.pg.get(pid) ?? 0);
  return { nodeMs: b.node - a.node, pgMs };
}

async function ping(database: Database) {
  if (database.pglite) await database.pglite.query('select 1');
  else await database.pool!.query('select 1');
}

// ---------------------------------------------------------------- corpus

interface Corpus {
  venues: Venue[];
  ics: GenEvent[];
  jsonld: GenEvent[];
  icsFeeds: Buffer[];
  jsonldPages: Buffer[];
  icsChanged: Buffer[];
  jsonldChanged: Buffer[];
  icsEvents: number;
  expectedMerges: number;
}

function buildCorpus(): Corpus {
  const t0 = performance.now();
  const venues = generateVenues(300);
  const ics = generateEvents(11, ICS_EVENTS, 'ics', venues, { recurringShare: 0.05 });
  const r = prng(99);
  const singles = ics.filter((e) => !e.weekly);
  const jsonld = generateEvents(12, JSONLD_EVENTS, 'web', venues, { recurringShare: 0 }).map((e, i) =>
    r.next() < OVERLAP && singles.length ? relist(singles[Math.floor(r.next() * singles.length)]!, r, i) : { ...e, url: `https://listings.example.org/e/${i}` },
  );
  const expectedMerges = new Set(jsonld.filter((e) => e.uid.startsWith('relisted-')).map((e) => `${e.venue.name}|${e.day}${e.start}`)).size;
  const pages = (list: GenEvent[]) => Array.from({ length: Math.ceil(list.length / PAGE_EVENTS) }, (_, p) => jsonLdPage(list.slice(p * PAGE_EVENTS, (p + 1) * PAGE_EVENTS), p + 1));
  const change = (list: GenEvent[], seed: number) => {
    const rc = prng(seed);
    return list.map((e) => (rc.next() < CHANGED_SHARE ? { ...e, title: `${e.title} (new date announced)`, description: `${e.description} Updated.` } : e));
  };
  const icsFeedsOut = icsFeeds(ics, 'Portland City Calendar');
  const c: Corpus = {
    venues,
    ics,
    jsonld,
    icsFeeds: icsFeedsOut,
    jsonldPages: pages(jsonld),
    icsChanged: SKIP_CHANGED ? [] : icsFeeds(change(ics, 5), 'Portland City Calendar', icsFeedsOut.map(veventsIn)),
    jsonldChanged: SKIP_CHANGED ? [] : pages(change(jsonld, 6)),
    icsEvents: ics.reduce((n, e) => n + (e.weekly || 1), 0),
    expectedMerges,
  };
  const icsBytes = c.icsFeeds.reduce((n, b) => n + b.length, 0);
  const ldBytes = c.jsonldPages.reduce((n, b) => n + b.length, 0);
  console.log(
    `Corpus (seeded, generated in ${sec(performance.now() - t0)}): ICS ${fmt(ics.length)} VEVENTs (${fmt(ics.filter((e) => e.weekly).length)} weekly RRULE COUNT=8) = ${fmt(c.icsEvents)} events in ` +
      `${c.icsFeeds.length} feed(s) of ${c.icsFeeds.map((b) => `${(b.length / 1048576).toFixed(1)} MB`).join(', ')} (${(icsBytes / 1048576).toFixed(1)} MB); ` +
      `JSON-LD ${fmt(jsonld.length)} events on ${c.jsonldPages.length} pages of ${PAGE_EVENTS} (${(ldBytes / 1048576).toFixed(1)} MB, ~${fmt(ldBytes / Math.max(1, c.jsonldPages.length) / 1024)} KB/page), ` +
      `${fmt(jsonld.length - jsonld.filter((e) => !e.uid.startsWith('relisted-')).length)} of them relisting ICS events (${fmt(expectedMerges)} distinct); ${venues.length} venues`,
  );
  return c;
}

// ---------------------------------------------------------------- throughput

interface RunResult {
  label: string;
  sources: number;
  fetched: number;
  created: number;
  merged: number;
  updated: number;
  rejected: number;
  errors: string[];
  wallMs: number;
  drainMs: number;
  fetchMs: number;
  connectorMs: number;
  dbMs: number;
  dbQueries: number;
  byKind: DbTotals['byKind'];
  announced: number;
  /** From the first NOTIFY sent to the last answered. */
  fanoutMs: number;
  /** CPU time of this process and of the PostgreSQL backends during the run (drain included). */
  nodeCpuMs: number;
  pgCpuMs: number;
}

async function runSources(app: FastifyInstance, database: Database, ids: string[], label: string, counters: { announced: number }): Promise<RunResult> {
  resetDb();
  phase.fetchMs = 0;
  phase.connectorMs = 0;
  counters.announced = 0;
  const res: RunResult = { label, sources: ids.length, fetched: 0, created: 0, merged: 0, updated: 0, rejected: 0, errors: [], wallMs: 0, drainMs: 0, fetchMs: 0, connectorMs: 0, dbMs: 0, dbQueries: 0, byKind: new Map(), announced: 0, fanoutMs: 0, nodeCpuMs: 0, pgCpuMs: 0 };
  const cpu0 = await cpuNow(database);
  const t0 = performance.now();
  for (const id of ids) {
    const s: RunSummary = await app.ingest.service.runSource(id, 'manual');
    res.fetched += s.fetched;
    res.created += s.created;
    res.merged += s.merged;
    res.updated += s.updated;
    res.rejected += s.rejected;
    if (s.status === 'error') res.errors.push(s.error ?? 'error');
  }
  res.wallMs = performance.now() - t0;
  await ping(database);
  res.drainMs = performance.now() - t0 - res.wallMs;
  const cpu = cpuSince(cpu0, await cpuNow(database));
  res.nodeCpuMs = cpu.nodeMs;
  res.pgCpuMs = cpu.pgMs;
  Object.assign(res, {
    fetchMs: phase.fetchMs,
    connectorMs: phase.connectorMs,
    dbMs: dbTotals.ms,
    dbQueries: dbTotals.n,
    byKind: dbTotals.byKind,
    announced: counters.announced,
    fanoutMs: Math.max(0, dbTotals.notifyTo - dbTotals.notifyFrom),
  });
  const stored = res.created + res.merged + res.updated;
  console.log(
    `  ${label.padEnd(34)} ${sec(res.wallMs).padStart(7)}  fetched ${fmt(res.fetched).padStart(6)}  created ${fmt(res.created).padStart(6)}  merged ${fmt(res.merged).padStart(5)}  updated ${fmt(res.updated).padStart(5)}  rejected ${fmt(res.rejected).padStart(4)}` +
      `  => ${fmt(perMin(stored, res.wallMs)).padStart(7)} stored/min, ${fmt(perMin(res.fetched, res.wallMs)).padStart(7)} fetched/min${res.errors.length ? `  ERRORS: ${[...new Set(res.errors)].join('; ')}` : ''}`,
  );
  const other = res.wallMs - res.connectorMs - res.dbMs;
  const kinds = [...res.byKind.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 6);
  console.log(
    `      time: fetch ${sec(res.fetchMs)}, parse (sandbox, incl. transfer) ${sec(res.connectorMs - res.fetchMs)}, database ${sec(res.dbMs)} in ${fmt(res.dbQueries)} statements, ` +
      `the rest (normalise, dedupe, classify, JS of the queries, waits for the pool) ${sec(other)}; ` +
      `${fmt(res.announced)} event_update, their NOTIFYs (${fmt(res.byKind.get('pg_notify (realtime fan-out)')?.n ?? 0)} statements) took ${sec(res.fanoutMs)} first to last${res.drainMs > 50 ? `, ${sec(res.drainMs)} of it after the run` : ''}`,
  );
  const cpuTotal = res.nodeCpuMs + res.pgCpuMs;
  console.log(
    `      CPU: this process ${sec(res.nodeCpuMs)} (main thread, parse workers${database.pglite ? ', PGlite' : ''})${database.pool ? `, PostgreSQL backends ${sec(res.pgCpuMs)}` : ''} ` +
      `=> ${fmt(perMin(stored, cpuTotal))} stored per CPU-minute, ${fmt(perMin(res.fetched, cpuTotal))} fetched per CPU-minute`,
  );
  console.log(`      statements (summed; NOTIFYs overlap): ${kinds.map(([k, v]) => `${k} ${sec(v.ms)} (${fmt(v.n)})`).join(', ')}`);
  return res;
}

interface Breakdown {
  candidates: number;
  normaliseMs: number;
  classifyMs: number;
}

/** CPU cost of normalise and classify on the cold run's candidates, measured apart from the run. */
async function measureSteps(app: FastifyInstance, candidates: CandidateEvent[]): Promise<Breakdown> {
  const venues: KnownVenues = new Map((await app.ingest.sources.allVenues()).map((v) => [venueKey(v.name), v]));
  const now = new Date();
  const t0 = performance.now();
  const items: NormalisedEvent[] = [];
  for (const c of candidates) {
    const n = normalise(c, { city: PORTLAND, now, venues });
    if (typeof n !== 'string') items.push(n);
  }
  const t1 = performance.now();
  for (const n of items) classify({ title: n.title, description: n.description, venue: n.venueName, categories: n.categories });
  const t2 = performance.now();
  return { candidates: candidates.length, normaliseMs: t1 - t0, classifyMs: t2 - t1 };
}

interface BlockResult {
  db: 'pglite' | 'postgres';
  runs: Map<string, RunResult>;
  freshness?: FreshnessResult;
}

async function throughput(kind: 'pglite' | 'postgres', database: Database, corpus: Corpus, breakdowns: Map<string, Breakdown>): Promise<BlockResult> {
  const routes: Record<string, Route> = {};
  const bodies = new Map<string, Buffer>();
  const serve = (path: string, body: Buffer, type: string) => {
    bodies.set(path, body);
    routes[path] = (_req, res) => {
      res.writeHead(200, { 'content-type': type }).end(bodies.get(path));
    };
  };
  const server = await startFeedServer(routes);
  const fetch = timedFetch(createSafeFetch({ allowPrivate: true }));
  const app = await makeApp(database, fetch, false);
  const counters = { announced: 0 };
  app.bus.subscribe('event_update', () => void (counters.announced += 1));
  const runs = new Map<string, RunResult>();
  try {
    const icsIds: string[] = [];
    for (const [i, body] of corpus.icsFeeds.entries()) {
      serve(`/city-${i}.ics`, body, 'text/calendar; charset=utf-8');
      const s = await app.ingest.sources.insert({ name: `City calendar ${i + 1}`, connector: 'ical', url: server.url(`/city-${i}.ics`), sourceType: 'municipal', trusted: true, intervalMinutes: 60 });
      icsIds.push(s.id);
    }
    const ldIds: string[] = [];
    for (const [i, body] of corpus.jsonldPages.entries()) {
      serve(`/listings/${i}.html`, body, 'text/html; charset=utf-8');
      const s = await app.ingest.sources.insert({ name: `Listings page ${i + 1}`, connector: 'jsonld', url: server.url(`/listings/${i}.html`), sourceType: 'web', trusted: true, intervalMinutes: 60 });
      ldIds.push(s.id);
    }
    // Warm the parse workers and the classifier model, as a running server would be.
    serve('/warm.ics', icsFeeds(corpus.ics.slice(0, 20), 'warm-up')[0]!, 'text/calendar');
    const warm = await app.ingest.sources.insert({ name: 'warm-up', connector: 'ical', url: server.url('/warm.ics'), sourceType: 'municipal', trusted: false, intervalMinutes: 60 });
    await app.ingest.service.runSource(warm.id, 'manual');
    await app.ingest.sources.remove(warm.id);
    await database.db.execute(sql`delete from events`);
    await database.db.execute(sql`delete from venues`);

    const capture = !breakdowns.size;
    const runIcs = async (label: string) => {
      phase.capture = capture && label.includes('1 cold') ? [] : null;
      const r = await runSources(app, database, icsIds, label, counters);
      if (phase.capture) breakdowns.set('ICS', await measureSteps(app, phase.capture));
      phase.capture = null;
      runs.set(label, r);
    };
    const runLd = async (label: string) => {
      phase.capture = capture && label.includes('1 cold') ? [] : null;
      const r = await runSources(app, database, ldIds, label, counters);
      if (phase.capture) breakdowns.set('JSON-LD', await measureSteps(app, phase.capture));
      phase.capture = null;
      runs.set(label, r);
    };
    if (icsIds.length) await runIcs('ICS 1 cold (all new)');
    if (ldIds.length) await runLd('JSON-LD 1 cold (new + relistings)');
    if (icsIds.length) await runIcs('ICS 2 unchanged');
    if (ldIds.length) await runLd('JSON-LD 2 unchanged');
    if (!SKIP_CHANGED) {
      corpus.icsChanged.forEach((b, i) => bodies.set(`/city-${i}.ics`, b));
      corpus.jsonldChanged.forEach((b, i) => bodies.set(`/listings/${i}.html`, b));
      if (icsIds.length) await runIcs(`ICS 3 ${CHANGED_SHARE * 100}% titles changed`);
      if (ldIds.length) await runLd(`JSON-LD 3 ${CHANGED_SHARE * 100}% titles changed`);
      corpus.icsFeeds.forEach((b, i) => bodies.set(`/city-${i}.ics`, b));
      corpus.jsonldPages.forEach((b, i) => bodies.set(`/listings/${i}.html`, b));
    }
    const [{ n, approved }] = (await rowsOf<{ n: number; approved: number }>(database, sql`select count(*)::int as n, count(*) filter (where status = 'approved')::int as approved from events`)) as [{ n: number; approved: number }];
    console.log(`  events stored: ${fmt(n)} (${fmt(approved)} approved); relistings expected to merge: ${fmt(corpus.expectedMerges)}`);
  } finally {
    await app.close();
    await server.close();
  }
  return { db: kind, runs };
}

// ---------------------------------------------------------------- freshness

interface FreshnessResult {
  unitSeconds: number;
  latencies: number[];
  waits: number[];
  processing: number[];
  runMs: number[];
  missing: number;
}

async function freshness(database: Database): Promise<FreshnessResult> {
  const S = UNIT_SECONDS;
  console.log(`\n  Freshness: ${fmt(FRESH_EVENTS)}-event ICS feed, interval 1 "minute" scaled to ${S} s (unitSeconds ${S}), job polling every 2 s (the default); ${CHANGES} title changes at random moments`);
  const venues = generateVenues(300);
  let events = generateEvents(21, FRESH_EVENTS, 'fresh', venues, { recurringShare: 0.05 });
  let body = icsFeeds(events, 'Fresh feed')[0]!;
  const server = await startFeedServer({
    '/fresh.ics': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
    },
  });
  const fetches: number[] = [];
  const inner = createSafeFetch({ allowPrivate: true });
  const fetch: SafeFetch = async (url, init) => {
    fetches.push(performance.now());
    return inner(url, init);
  };
  await database.db.execute(sql`update sources set enabled = false`);
  const app = await makeApp(database, fetch, { unitSeconds: S, pollingIntervalSeconds: 2 });
  const runMs: number[] = [];
  let runs = 0;
  const svc = app.ingest.service;
  const runSource = svc.runSource.bind(svc);
  svc.runSource = async (id, trigger) => {
    const t0 = performance.now();
    try {
      return await runSource(id, trigger);
    } finally {
      runMs.push(performance.now() - t0);
      runs += 1;
    }
  };
  const pending = new Map<string, { at: number; resolve: (ms: number) => void }>();
  app.bus.subscribe('event_update', (d) => {
    const p = pending.get(d.id);
    if (p && d.action === 'updated') {
      pending.delete(d.id);
      p.resolve(performance.now());
    }
  });
  const result: FreshnessResult = { unitSeconds: S, latencies: [], waits: [], processing: [], runMs, missing: 0 };
  try {
    const source = await app.ingest.sources.insert({ name: 'Fresh feed', connector: 'ical', url: server.url('/fresh.ics'), sourceType: 'municipal', trusted: true, intervalMinutes: 1 });
    await app.scheduler!.start();
    const t0 = performance.now();
    while (runs < 1 && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 100));
    if (runs < 1) throw new Error('the scheduler did not run the source within 120 s');
    // Items to change: single (non-recurring) events, approved, found by UID in event_sources.
    const rows = await rowsOf<{ uid: string; id: string }>(
      database,
      sql`select es.external_id as uid, e.id from event_sources es join events e on e.id = es.event_id
        where es.source_id = ${source.id} and e.status = 'approved' and es.external_id not like '%@%@%' order by es.external_id`,
    );
    const r = prng(2024);
    const chosen: { uid: string; id: string }[] = [];
    const pool = [...rows];
    while (chosen.length < CHANGES && pool.length) chosen.push(pool.splice(Math.floor(r.next() * pool.length), 1)[0]!);
    if (chosen.length < CHANGES) console.log(`  (only ${chosen.length} approved single events to change)`);
    const windowMs = 6 * S * 1000;
    const start = performance.now();
    const offsets = chosen.map(() => r.next() * windowMs).sort((a, b) => a - b);
    const done: Promise<void>[] = [];
    for (const [i, c] of chosen.entries()) {
      const wait = start + offsets[i]! - performance.now();
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
      events = events.map((e) => (e.uid === c.uid ? { ...e, title: `${e.title} (change ${i + 1})` } : e));
      body = icsFeeds(events, 'Fresh feed')[0]!;
      const at = performance.now();
      done.push(
        new Promise<number>((resolve) => pending.set(c.id, { at, resolve })).then((t) => {
          const fetchAt = fetches.find((f) => f >= at) ?? t;
          result.latencies.push(t - at);
          result.waits.push(fetchAt - at);
          result.processing.push(t - fetchAt);
        }),
      );
    }
    const deadline = new Promise<void>((res) => setTimeout(res, 3 * S * 1000 + 60_000).unref());
    await Promise.race([Promise.all(done), deadline]);
    result.missing = pending.size;
  } finally {
    await app.close();
    await server.close();
  }
  const l = [...result.latencies].sort((a, b) => a - b);
  const w = [...result.waits].sort((a, b) => a - b);
  const p = [...result.processing].sort((a, b) => a - b);
  const rm = [...runMs].sort((a, b) => a - b);
  console.log(
    `  change -> event_update over ${l.length} changes${result.missing ? ` (${result.missing} never announced)` : ''}: p50 ${sec(percentile(l, 50))}, max ${sec(l[l.length - 1] ?? NaN)}` +
      `  [waiting for the next run: p50 ${sec(percentile(w, 50))}, max ${sec(w[w.length - 1] ?? NaN)}; fetch to announce: p50 ${sec(percentile(p, 50))}, max ${sec(p[p.length - 1] ?? NaN)}]`,
  );
  console.log(`  scheduled runs: ${runMs.length}, duration p50 ${sec(percentile(rm, 50))}, max ${sec(rm[rm.length - 1] ?? NaN)}`);
  const target = (S + 10) * 1000;
  const ok = l.length === CHANGES && percentile(l, 50) <= target && (l[l.length - 1] ?? Infinity) <= target;
  console.log(`  Freshness p50 and max <= one interval + 10 s (${S} + 10 s scaled): ${ok ? 'PASS' : 'FAIL'}`);
  // Of a latency, the interval part scales with the interval; the run and the polling do not.
  const over = (l[l.length - 1] ?? NaN) - S * 1000;
  console.log(`  At a real 60 s interval: max ~ 60 s + ${sec(over)} (the part of the max beyond one scaled interval) = ${sec(60_000 + over)}, target 70 s: ${60_000 + over <= 70_000 ? 'PASS' : 'FAIL'}`);
  return result;
}

// ---------------------------------------------------------------- databases

async function block(kind: 'pglite' | 'postgres', database: Database, corpus: Corpus, breakdowns: Map<string, Breakdown>): Promise<BlockResult> {
  const title = kind === 'pglite' ? 'embedded PGlite (in memory)' : `PostgreSQL ${(await rowsOf<{ server_version: string }>(database, sql`show server_version`))[0]?.server_version}`;
  console.log(`\n#### ${title}: load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  if (database.pglite) instrumentPglite(database.pglite);
  else instrumentPg();
  const result = await throughput(kind, database, corpus, breakdowns);
  if (!SKIP_FRESHNESS && CHANGES > 0) result.freshness = await freshness(database);
  return result;
}

// ---------------------------------------------------------------- main

async function main() {
  console.log(`Ingestion benchmark: Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at start`);
  const tStart = performance.now();
  const corpus = buildCorpus();
  const breakdowns = new Map<string, Breakdown>();
  const blocks: BlockResult[] = [];
  if (ONLY !== 'postgres') {
    const database = await openDatabase({});
    try {
      blocks.push(await block('pglite', database, corpus, breakdowns));
    } finally {
      await database.close();
    }
  }
  if (ONLY !== 'pglite') {
    const url = await postgresUrl();
    if (url) blocks.push(await withBenchDatabase(url, (database) => block('postgres', database, corpus, breakdowns)));
  }
  // The idle parse workers are unref'd: keep the loop alive until they have stopped (else the
  // process ends inside this await, exit code 13, before the summary).
  const keepAlive = setInterval(() => undefined, 1000);
  await closeSharedSandbox();
  clearInterval(keepAlive);

  console.log(`\n#### Summary: stored = created + merged + updated, per minute of wall time of runSource end to end (fetched per minute), wall time; per CPU-minute (node + PostgreSQL backends)`);
  const labels = [...new Set(blocks.flatMap((b) => [...b.runs.keys()]))];
  console.log(`  ${'run'.padEnd(34)} | ${blocks.map((b) => `${b.db.padEnd(26)} ${'/CPU-min'.padStart(8)}`).join(' | ')}`);
  for (const l of labels) {
    const cells = blocks.map((b) => {
      const r = b.runs.get(l);
      const stored = r ? r.created + r.merged + r.updated : 0;
      return r
        ? `${fmt(perMin(stored, r.wallMs)).padStart(7)} (${fmt(perMin(r.fetched, r.wallMs)).padStart(7)}) ${sec(r.wallMs).padStart(7)} ${fmt(perMin(stored, r.nodeCpuMs + r.pgCpuMs)).padStart(9)}`
        : ''.padEnd(36);
    });
    console.log(`  ${l.padEnd(34)} | ${cells.join(' | ')}`);
  }
  for (const [name, b] of breakdowns) {
    console.log(
      `  CPU of the pure steps on the ${name} cold candidates (${fmt(b.candidates)}), measured apart: normalise ${sec(b.normaliseMs)} (${(b.normaliseMs / (b.candidates / 1000)).toFixed(1)} ms/1k), classify ${sec(b.classifyMs)} (${(b.classifyMs / (b.candidates / 1000)).toFixed(1)} ms/1k)`,
    );
  }
  for (const b of blocks) {
    const f = b.freshness;
    if (!f) continue;
    const l = [...f.latencies].sort((a, c) => a - c);
    console.log(`  freshness ${b.db}: p50 ${sec(percentile(l, 50))}, max ${sec(l[l.length - 1] ?? NaN)} over ${l.length}/${CHANGES} changes at a ${f.unitSeconds} s interval (target <= ${f.unitSeconds + 10} s)`);
  }
  const pgBlock = blocks.find((b) => b.db === 'postgres');
  if (pgBlock) {
    const cold = [...pgBlock.runs.values()].filter((r) => r.label.includes('1 cold'));
    const stored = cold.reduce((n, r) => n + r.created + r.merged + r.updated, 0);
    const ms = cold.reduce((n, r) => n + r.wallMs, 0);
    const each = cold.map((r) => `${r.label.split(' ')[0]} ${fmt(perMin(r.created + r.merged + r.updated, r.wallMs))}`).join(', ');
    const ok = cold.length > 0 && cold.every((r) => perMin(r.created + r.merged + r.updated, r.wallMs) >= TARGET_PER_MIN && r.errors.length === 0);
    const cpuMs = cold.reduce((n, r) => n + r.nodeCpuMs + r.pgCpuMs, 0);
    console.log(
      `  PostgreSQL ≥ 50,000 events/min: ${ok ? 'PASS' : 'FAIL'}  (cold runs, wall time: ${each}; together ${fmt(perMin(stored, ms))} events/min at load average ${os.loadavg()[0]!.toFixed(1)}; ` +
        `per CPU-minute of node + PostgreSQL: ${fmt(perMin(stored, cpuMs))})`,
    );
  } else console.log('  PostgreSQL ≥ 50,000 events/min: not measured (no PostgreSQL)');
  console.log(`  total bench time ${sec(performance.now() - tStart)}; load average at end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const errors = blocks.reduce((n, b) => n + [...b.runs.values()].reduce((m, r) => m + r.errors.length, 0), 0);
  if (errors) process.exitCode = 1;
}

await main();
