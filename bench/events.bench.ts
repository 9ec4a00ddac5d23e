// Events benchmark (issue 18): the real app over real HTTP, under requests that vary as a crowd's do
// (pages, categories, search words, places, date windows, facets and stats), on three databases:
//
//   1. PGlite, the embedded default, with the demo city as `npm start` seeds it: each kind of
//      request alone on one connection (target: p95 <= 30 ms).
//   2. PGlite with 10,000 generated events: 50 connections browsing 24-event pages for 20 s
//      (target: >= 150 requests/s, none over 2 s), then each kind alone.
//   3. PostgreSQL with 100,000 generated events: each kind alone (target: p95 <= 15 ms), the varied
//      mix on 50 connections for 20 s (target: >= 1,000 requests/s, no errors), then the mix offered
//      at a fixed 300 requests/s, open loop (target: p97.5 <= 50 ms), and EXPLAIN (ANALYZE, BUFFERS)
//      of the slowest kind's slowest request.
//
//   node --import tsx bench/events.bench.ts [--events N] [--pglite-events N] [--seconds S]
//        [--rate R] [--per-kind N] [--only pglite|postgres] [--workers N] [--profile DIR]
//
// PostgreSQL: DATABASE_URL or BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test when a
// server answers there. A fresh database townbeat_bench_<random> is created and dropped.
// The events are generated (ours, not real data): every one approved and upcoming.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { buildApp } from '../src/server/app.ts';
import { PORTLAND } from '../src/server/city.ts';
import { seedFeatureDemos } from '../src/server/demo-content.ts';
import { openDatabase, type Database, type Db } from '../src/server/db/client.ts';
import * as schema from '../src/server/db/schema.ts';
import { parseEnv } from '../src/server/env.ts';
import { seedDemoIfEmpty } from '../src/server/features/ingestion/demo/seed-demo.ts';
import { closeSharedSandbox } from '../src/server/features/ingestion/parse/sandbox.ts';
import { memoryLatencyNs, postgresUrl, prng, withBenchDatabase } from './lib.ts';

// ---------------------------------------------------------------- options

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}
const EVENTS = Number(flag('events') ?? 100_000);
const PGLITE_EVENTS = Number(flag('pglite-events') ?? 10_000);
const SECONDS = Number(flag('seconds') ?? 20);
const RATE = Number(flag('rate') ?? 300);
const REQUESTS_PER_KIND = Number(flag('per-kind') ?? 300);
const ONLY = flag('only') as 'pglite' | 'postgres' | undefined;
const CONCURRENCY = Number(flag('concurrency') ?? 50);
/**
 * --workers N: on PostgreSQL, serve with the real server (src/server/main.ts) as `npm start` runs
 * it, in N cluster workers sharing the port (WEB_CONCURRENCY), instead of in this process.
 * Default: one per core; 1 serves in-process (what --profile profiles).
 */
const WORKERS = Number(flag('workers') ?? os.cpus().length);
/** --profile DIR: a CPU profile of the server's process during each crowd phase, written there. */
const PROFILE_DIR = flag('profile');
for (const [name, v] of Object.entries({ events: EVENTS, 'pglite-events': PGLITE_EVENTS, seconds: SECONDS, rate: RATE, 'per-kind': REQUESTS_PER_KIND, concurrency: CONCURRENCY })) {
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
}
if (ONLY && ONLY !== 'pglite' && ONLY !== 'postgres') throw new Error('--only must be pglite or postgres');

// ---------------------------------------------------------------- seeded data

const CATEGORY_WEIGHTS = [
  ['Music', 22],
  ['Food', 16],
  ['Arts', 14],
  ['Wellness', 10],
  ['Sports', 10],
  ['Tech', 9],
  ['Business', 9],
  ['Other', 10],
] as const;
const CATEGORY_NAMES = CATEGORY_WEIGHTS.map(([c]) => c);
const SOURCE_WEIGHTS = [
  ['facebook', 25],
  ['meetup', 22],
  ['municipal', 15],
  ['eventbrite', 20],
  ['ical', 10],
  ['rss', 8],
] as const;
const SOURCE_NAMES = SOURCE_WEIGHTS.map(([s]) => s);

/** Topic words per category: [subject, format]. */
const TOPICS: Record<string, { subjects: string[]; formats: string[]; words: string[] }> = {
  Music: {
    subjects: ['Jazz', 'Blues', 'Indie Rock', 'Folk', 'Hip-Hop', 'Symphony', 'Open Mic', 'DJ', 'Karaoke', 'Choir', 'Punk', 'Bluegrass'],
    formats: ['Night', 'Showcase', 'Session', 'Concert', 'Jam', 'Live', 'Festival'],
    words: ['music', 'band', 'stage', 'songs', 'guitar', 'vinyl', 'dance', 'live'],
  },
  Food: {
    subjects: ['Farmers', 'Taco', 'Brunch', 'Wine', 'Craft Beer', 'Food Cart', 'Pizza', 'Vegan', 'Coffee', 'Ramen', 'Cider'],
    formats: ['Market', 'Tasting', 'Pop-Up', 'Festival', 'Crawl', 'Supper', 'Class'],
    words: ['food', 'local', 'chefs', 'tasting', 'menu', 'seasonal', 'kitchen', 'brewery'],
  },
  Arts: {
    subjects: ['Pottery', 'Gallery', 'Poetry', 'Film', 'Theater', 'Painting', 'Photography', 'Comedy', 'Printmaking', 'Dance'],
    formats: ['Opening', 'Workshop', 'Night', 'Screening', 'Reading', 'Show', 'Class'],
    words: ['art', 'artists', 'gallery', 'studio', 'creative', 'exhibit', 'paint', 'craft'],
  },
  Wellness: {
    subjects: ['Yoga', 'Meditation', 'Tai Chi', 'Breathwork', 'Pilates', 'Sound Bath', 'Mindfulness', 'Forest Walk'],
    formats: ['Class', 'Retreat', 'Session', 'Circle', 'Workshop', 'Morning'],
    words: ['wellness', 'health', 'calm', 'breathing', 'mats', 'mind', 'body', 'relax'],
  },
  Sports: {
    subjects: ['Trail Run', 'Soccer', 'Basketball', 'Cycling', 'Climbing', 'Kayak', 'Marathon', 'Pickleball', 'Roller Derby', 'Ultimate'],
    formats: ['Meetup', 'League', 'Race', 'Clinic', 'Tournament', 'Training'],
    words: ['sports', 'team', 'game', 'fitness', 'players', 'race', 'court', 'outdoor'],
  },
  Tech: {
    subjects: ['JavaScript', 'Python', 'Startup', 'AI', 'Open Source', 'Data Science', 'Hackathon', 'Rust', 'Design Systems', 'Cloud'],
    formats: ['Meetup', 'Workshop', 'Talk', 'Demo Night', 'Hack Night', 'Conference'],
    words: ['tech', 'software', 'developers', 'code', 'talks', 'laptops', 'demos', 'engineers'],
  },
  Business: {
    subjects: ['Networking', 'Small Business', 'Founders', 'Marketing', 'Real Estate', 'Women in Business', 'Nonprofit', 'Investor'],
    formats: ['Breakfast', 'Mixer', 'Panel', 'Seminar', 'Luncheon', 'Roundtable'],
    words: ['business', 'networking', 'entrepreneurs', 'growth', 'career', 'leaders', 'professionals', 'panel'],
  },
  Other: {
    subjects: ['Trivia', 'Book Club', 'Board Game', 'Volunteer', 'Garden', 'Neighborhood', 'Library', 'Swap', 'Cleanup', 'History'],
    formats: ['Night', 'Meetup', 'Day', 'Walk', 'Social', 'Gathering'],
    words: ['community', 'neighbors', 'volunteers', 'families', 'books', 'games', 'friends', 'park'],
  },
};
const COMMON_ADJECTIVES = ['Community', 'Sunset', 'Downtown', 'Weekly', 'Free', 'Family', 'Late Night', 'Rose City', 'Monthly', 'Summer', 'Winter', 'Beginner'];
/** Each lands in roughly 0.02 to 0.05% of titles: a search for one has few matches. */
const RARE_WORDS = ['Theremin', 'Kombucha', 'Origami', 'Axolotl', 'Calligraphy', 'Sourdough', 'Taxidermy', 'Harpsichord', 'Kintsugi', 'Falconry', 'Bonsai', 'Didgeridoo'];
const GENERAL_WORDS = (
  'join us for an evening of with friends and neighbors all ages welcome bring your own tickets at the door doors open ' +
  'early registration recommended limited space snacks provided drinks available accessible venue parking nearby transit ' +
  'hosted by our local team every week new faces always welcome no experience needed learn share meet enjoy celebrate ' +
  'support small businesses in the heart of the city great fun free entry donations appreciated rain or shine outdoor indoor ' +
  'special guest featuring hands-on relaxed friendly atmosphere come early stay late see you there'
).split(' ');
const VENUE_FIRST = ['The Blue', 'Old', 'Red', 'Rose City', 'Willamette', 'Burnside', 'Alder', 'Lucky', 'Green', 'Union', 'Cascade', 'Laurel', 'Foggy', 'Iron'];
const VENUE_SECOND = ['Hall', 'Theater', 'Lounge', 'Brewery', 'Park', 'Library', 'Studio', 'Community Center', 'Cafe', 'Taproom', 'Gallery', 'Arena', 'Commons', 'Pavilion'];
const STREETS = ['SE Hawthorne Blvd', 'NE Alberta St', 'SW Broadway', 'N Mississippi Ave', 'NW 23rd Ave', 'SE Division St', 'NE Sandy Blvd', 'SE Foster Rd', 'N Lombard St', 'SW Naito Pkwy'];
const BOX = { latMin: 45.43, latMax: 45.6, lngMin: -122.8, lngMax: -122.5 };
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

interface Venue {
  id: string;
  name: string;
  address: string;
  neighbourhood: string;
  lat: number;
  lng: number;
}

function generateVenues(n: number): Venue[] {
  const r = prng(7);
  const hoods = PORTLAND.neighbourhoods;
  const venues: Venue[] = [];
  for (let i = 0; i < n; i++) {
    // Most venues cluster around a neighbourhood centre; a quarter anywhere in the city box.
    let lat: number;
    let lng: number;
    if (r.next() < 0.75) {
      const h = r.pick(hoods);
      lat = clamp(h.lat + (r.next() + r.next() - 1) * 0.02, BOX.latMin, BOX.latMax);
      lng = clamp(h.lng + (r.next() + r.next() - 1) * 0.03, BOX.lngMin, BOX.lngMax);
    } else {
      lat = BOX.latMin + r.next() * (BOX.latMax - BOX.latMin);
      lng = BOX.lngMin + r.next() * (BOX.lngMax - BOX.lngMin);
    }
    let nearest = hoods[0]!;
    let best = Infinity;
    for (const h of hoods) {
      const d = (h.lat - lat) ** 2 + ((h.lng - lng) * 0.7) ** 2;
      if (d < best) [best, nearest] = [d, h];
    }
    venues.push({
      id: r.uuid(),
      name: `${r.pick(VENUE_FIRST)} ${r.pick(VENUE_SECOND)} ${i % 7 === 0 ? `#${i}` : ''}`.trim(),
      address: `${r.int(100, 9999)} ${r.pick(STREETS)}, Portland, OR`,
      neighbourhood: nearest.name,
      lat: Math.round(lat * 1e6) / 1e6,
      lng: Math.round(lng * 1e6) / 1e6,
    });
  }
  return venues;
}

/** Column arrays for one batch of events, ready for `unnest`. */
interface EventBatch {
  id: string[];
  title: string[];
  description: string[];
  category: string[];
  categoryConfidence: number[];
  sourceType: string[];
  sourceUrl: string[];
  startDate: string[];
  endDate: string[];
  allDay: boolean[];
  venueId: (string | null)[];
  venueName: string[];
  address: (string | null)[];
  neighbourhood: (string | null)[];
  lat: (number | null)[];
  lng: (number | null)[];
  attendeeCount: number[];
  price: (number | null)[];
  isFree: boolean[];
  isVerified: boolean[];
  status: string[];
  favoriteCount: number[];
}

function* generateEvents(total: number, batchSize: number, venues: Venue[], now: number): Generator<EventBatch> {
  const r = prng(42);
  // A stream of its own, so the other fields stay what they were before it was added.
  const longText = prng(4242);
  const HOUR = 3600_000;
  for (let done = 0; done < total; ) {
    const n = Math.min(batchSize, total - done);
    const b: EventBatch = {
      id: [], title: [], description: [], category: [], categoryConfidence: [], sourceType: [], sourceUrl: [], startDate: [], endDate: [],
      allDay: [], venueId: [], venueName: [], address: [], neighbourhood: [], lat: [], lng: [], attendeeCount: [], price: [], isFree: [],
      isVerified: [], status: [], favoriteCount: [],
    };
    for (let i = 0; i < n; i++) {
      const category = r.weighted(CATEGORY_WEIGHTS);
      const t = TOPICS[category]!;
      const source = r.weighted(SOURCE_WEIGHTS);
      const parts: string[] = [];
      if (r.next() < 0.35) parts.push(r.pick(COMMON_ADJECTIVES));
      if (r.next() < 0.004) parts.push(r.pick(RARE_WORDS));
      parts.push(r.pick(t.subjects), r.pick(t.formats));
      if (r.next() < 0.15) parts.push(`at ${r.pick(VENUE_FIRST)} ${r.pick(VENUE_SECOND)}`);
      const online = r.next() < 0.03;
      const venue = online ? null : r.pick(venues);
      const words: string[] = [];
      const len = r.int(20, 60);
      for (let w = 0; w < len; w++) {
        const x = r.next();
        words.push(x < 0.3 ? r.pick(t.words) : x < 0.3005 ? r.pick(RARE_WORDS).toLowerCase() : r.pick(GENERAL_WORDS));
      }
      if (r.next() < 0.4) words.splice(r.int(0, words.length), 0, 'Portland');
      if (venue && r.next() < 0.5) words.push('in', venue.neighbourhood);
      // One in twenty-five has an organiser's full description (about 2,000 to 6,000 characters,
      // as real listings carry): its words take kilobytes, which no btree entry could hold.
      if (longText.next() < 0.04) {
        for (let w = longText.int(300, 900); w > 0; w--) words.push(longText.next() < 0.3 ? longText.pick(t.words) : longText.pick(GENERAL_WORDS));
      }
      // Start: the next 90 days; 2% began within the last hour and are still on.
      const dayOffset = r.next() < 0.02 ? -r.next() / 24 : r.next() * 90;
      const start = Math.round((now + dayOffset * 24 * HOUR) / (15 * 60_000)) * (15 * 60_000);
      const end = Math.max(start + r.int(1, 4) * HOUR, now + HOUR);
      const free = r.next() < 0.4;
      b.id.push(r.uuid());
      b.title.push(parts.join(' '));
      b.description.push(`${words.join(' ')}.`);
      b.category.push(category);
      b.categoryConfidence.push(Math.round((0.5 + r.next() / 2) * 100) / 100);
      b.sourceType.push(source);
      b.sourceUrl.push(`https://${source}.example.org/events/${done + i}`);
      b.startDate.push(new Date(start).toISOString());
      b.endDate.push(new Date(end).toISOString());
      b.allDay.push(false);
      b.venueId.push(venue?.id ?? null);
      b.venueName.push(venue?.name ?? 'Online');
      b.address.push(venue?.address ?? null);
      b.neighbourhood.push(venue?.neighbourhood ?? null);
      b.lat.push(venue?.lat ?? null);
      b.lng.push(venue?.lng ?? null);
      // Popularity is skewed: most events have a handful, a few have hundreds.
      b.attendeeCount.push(Math.floor(Math.exp(r.next() * 6.2)) - 1);
      b.favoriteCount.push(Math.floor(Math.exp(r.next() * 5)) - 1);
      b.price.push(free ? null : r.int(5, 80));
      b.isFree.push(free);
      b.isVerified.push(r.next() < 0.3);
      b.status.push('approved');
    }
    done += n;
    yield b;
  }
}

// ---------------------------------------------------------------- loading

type Rows = { rows: Record<string, unknown>[] };
type Query = (text: string, params?: unknown[]) => Promise<Rows>;

/** Runs one statement with parameters on whichever driver is underneath. */
export async function rawQuery(database: Database, text: string, params: unknown[] = []): Promise<Rows> {
  if (database.pglite) return database.pglite.query<Record<string, unknown>>(text, params);
  return database.pool!.query(text, params);
}

/** One connection for the whole load, so session settings apply to every statement. */
async function withConnection<T>(database: Database, fn: (q: Query) => Promise<T>): Promise<T> {
  if (database.pglite) return fn((text, params = []) => database.pglite!.query<Record<string, unknown>>(text, params));
  const client = await database.pool!.connect();
  try {
    return await fn((text, params = []) => client.query(text, params));
  } finally {
    client.release();
  }
}

const INSERT_EVENTS = `
insert into events (id, title, description, category, category_confidence, source_type, source_url, start_date, end_date,
  time_zone, all_day, venue_id, venue_name, address, neighbourhood, lat, lng, attendee_count, price, is_free, is_verified,
  status, favorite_count, people_count)
select id, title, description, category, category_confidence, source_type, source_url, start_date, end_date,
  '${PORTLAND.timeZone}', all_day, venue_id, venue_name, address, neighbourhood, lat, lng, attendee_count, price, is_free, is_verified,
  status, favorite_count, favorite_count
from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::real[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[],
  $10::boolean[], $11::uuid[], $12::text[], $13::text[], $14::text[], $15::float8[], $16::float8[], $17::int[], $18::numeric[],
  $19::boolean[], $20::boolean[], $21::text[], $22::int[])
  as t(id, title, description, category, category_confidence, source_type, source_url, start_date, end_date, all_day, venue_id,
    venue_name, address, neighbourhood, lat, lng, attendee_count, price, is_free, is_verified, status, favorite_count)`;

const INSERT_SOURCES = `
insert into event_sources (event_id, source_type, url, name, external_id)
select e, s, u, n, x from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) as t(e, s, u, n, x)`;

export async function loadData(database: Database, now: number, total = EVENTS): Promise<void> {
  await withConnection(database, (q) => load(q, now, database.kind, total));
}

async function load(q: Query, now: number, kind: Database['kind'], total: number): Promise<void> {
  const t0 = performance.now();
  // Bulk load as one would: the migrated indexes are dropped, the rows inserted, and the very
  // same index definitions (read back from pg_indexes) built again.
  await q(`set maintenance_work_mem = '${kind === 'pglite' ? 128 : 256}MB'`);
  const { rows: defs } = await q(
    `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'events'
       and indexname not in (select conname from pg_constraint where conrelid = 'events'::regclass)`,
  );
  for (const d of defs) await q(`drop index "${String(d.indexname)}"`);
  // The series trigger recomputes each batch's series, which without indexes reads the whole
  // table per batch; a bulk load computes series_prev_end once at the end, as migration 0014 does.
  await q('alter table events disable trigger events_series_prev_end_insert');
  const venues = generateVenues(1500);
  await q(
    `insert into venues (id, name, address, neighbourhood, lat, lng)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[])`,
    [venues.map((v) => v.id), venues.map((v) => v.name), venues.map((v) => v.address), venues.map((v) => v.neighbourhood), venues.map((v) => v.lat), venues.map((v) => v.lng)],
  );
  const feedNames = (s: string, i: number) => `${s} feed ${i % 40}`;
  let inserted = 0;
  for (const b of generateEvents(total, 5000, venues, now)) {
    await q(INSERT_EVENTS, [
      b.id, b.title, b.description, b.category, b.categoryConfidence, b.sourceType, b.sourceUrl, b.startDate, b.endDate, b.allDay,
      b.venueId, b.venueName, b.address, b.neighbourhood, b.lat, b.lng, b.attendeeCount, b.price, b.isFree, b.isVerified, b.status,
      b.favoriteCount,
    ]);
    await q(INSERT_SOURCES, [b.id, b.sourceType, b.sourceUrl, b.sourceType.map((s, i) => feedNames(s, inserted + i)), b.id.map((_, i) => `ext-${inserted + i}`)]);
    inserted += b.id.length;
    if (process.stdout.isTTY) process.stdout.write(`\r  inserted ${inserted.toLocaleString('en-US')} events`);
  }
  if (process.stdout.isTTY) process.stdout.write('\r');
  await q('alter table events enable trigger events_series_prev_end_insert');
  await q(`select refresh_series_prev_end(array(select distinct series_key from events))`);
  const loadMs = performance.now() - t0;
  const t1 = performance.now();
  for (const d of defs) await q(String(d.indexdef));
  const indexMs = performance.now() - t1;
  const t2 = performance.now();
  // VACUUM sets the visibility map (index-only scans) as autovacuum would on a server;
  // PGlite has no autovacuum, so its figures assume an occasional VACUUM.
  await q('vacuum analyze events');
  await q('vacuum analyze event_sources');
  await q('vacuum analyze venues');
  // The load's dirty pages are written out now, not by a checkpoint in the middle of a phase
  // (which stalled every request for half a second on this machine's disk).
  if (kind === 'postgres') await q('checkpoint').catch((err: unknown) => console.log(`  (no CHECKPOINT: ${err instanceof Error ? err.message : String(err)})`));
  const analyzeMs = performance.now() - t2;
  const [{ n, cards }] = (await q(`select count(*)::int as n, count(distinct series_key)::int as cards from events where status = 'approved' and end_date > now()`)).rows as [{ n: number; cards: number }];
  const [{ size }] = (await q(`select pg_size_pretty(pg_total_relation_size('events')) as size`)).rows as [{ size: string }];
  console.log(
    `  loaded ${inserted.toLocaleString('en-US')} events (${n.toLocaleString('en-US')} approved and upcoming, listed as ${cards.toLocaleString('en-US')} cards: a series is one; events with its ${defs.length + 1} indexes ${size}): ` +
      `insert ${(loadMs / 1000).toFixed(1)} s (${Math.round(inserted / (loadMs / 1000)).toLocaleString('en-US')} rows/s in 5,000-row unnest batches, with a source row each), ` +
      `index build ${(indexMs / 1000).toFixed(1)} s, VACUUM ANALYZE ${(analyzeMs / 1000).toFixed(1)} s`,
  );
}

// ---------------------------------------------------------------- request kinds

interface Req {
  url: string;
  /** The request's kind (one of KINDS), for the per-kind table. */
  kind: Kind;
}
/** The kinds of request a crowd of visitors sends, as issue 18 names them. */
export const KINDS = ['default list', 'category', 'ranked search', 'search by date', 'distance sort', 'popularity, deep offsets', 'date window', 'stats', 'facets with a search word'] as const;
type Kind = (typeof KINDS)[number];
/** Their shares in the varied mix. */
const MIX: [Kind, number][] = [
  ['default list', 20],
  ['category', 15],
  ['ranked search', 15],
  ['search by date', 5],
  ['distance sort', 10],
  ['popularity, deep offsets', 8],
  ['date window', 12],
  ['stats', 5],
  ['facets with a search word', 10],
];

const SEARCH_TERMS = [
  // broad: a large share of the events
  'music', 'night', 'community', 'portland', 'free', 'live', 'workshop', 'festival', 'local', 'class',
  // medium
  'jazz', 'yoga', 'trivia', 'brewery', 'hackathon', 'pottery', 'marathon', 'networking', 'tasting', 'karaoke', 'bluegrass', 'pickleball',
  'meditation', 'cider', 'ramen', 'poetry', 'climbing', 'startup', 'garden', 'choir',
  // rare
  'theremin', 'kombucha', 'origami', 'axolotl', 'calligraphy', 'sourdough', 'kintsugi', 'falconry', 'bonsai', 'didgeridoo',
  // title substrings, phrases, typos and words nobody uses
  'arde', 'hack', 'ombuch', 'ickleb', 'ytho', 'jazz night', 'farmers market', '"open mic"', 'yoga -beginner', 'craft beer tasting', 'qzx', 'symphonie',
];

/** Seeded, varied requests of each kind: pages, categories, words, places, windows all differ. */
export function makeGenerator(seed: number, nowMs: number) {
  const r = prng(seed);
  const qs = (o: Record<string, string | number | undefined>) =>
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
  const cats = () => {
    const a = r.pick(CATEGORY_NAMES);
    if (r.next() < 0.6) return a;
    const b = r.pick(CATEGORY_NAMES.filter((c) => c !== a));
    return `${a},${b}`;
  };
  const page = (deep = false) => 24 * (deep ? r.int(0, 100) : r.weighted([[0, 50], [1, 20], [2, 12], [3, 8], [r.int(4, 20), 10]] as const));
  // A window a visitor picks: today, tonight, a given day, a weekend, a week, a month, from any hour of the next 60 days.
  const window = () => {
    const start = Math.floor(nowMs / 3600_000) * 3600_000 + r.int(0, 60 * 24) * 3600_000;
    const hours = r.weighted([[6, 15], [24, 35], [48, 20], [24 * 7, 20], [24 * 30, 10]] as const);
    return { startDate: new Date(start).toISOString(), endDate: new Date(start + hours * 3600_000).toISOString() };
  };
  const place = () => ({ lat: (45.45 + r.next() * 0.13).toFixed(4), lng: (-122.78 + r.next() * 0.26).toFixed(4) });
  const list = (q: Record<string, string | number | undefined>) => `/api/events?${qs({ limit: 24, ...q })}`;
  const make: Record<Kind, () => string> = {
    'default list': () => list({ offset: page() }),
    category: () => list({ category: cats(), sortBy: r.pick(['date', 'date', 'popularity']), offset: page(), ...(r.next() < 0.3 ? { sourceType: r.pick(SOURCE_NAMES) } : {}) }),
    'ranked search': () => list({ search: r.pick(SEARCH_TERMS), sortBy: 'relevance', offset: r.next() < 0.8 ? 0 : 24, ...(r.next() < 0.2 ? { category: r.pick(CATEGORY_NAMES) } : {}) }),
    'search by date': () => list({ search: r.pick(SEARCH_TERMS), sortBy: 'date', offset: page(), ...(r.next() < 0.5 ? window() : {}) }),
    'distance sort': () => list({ ...place(), radius: r.int(1, 10), sortBy: 'distance', offset: page(), ...(r.next() < 0.3 ? { category: r.pick(CATEGORY_NAMES) } : {}) }),
    'popularity, deep offsets': () => list({ sortBy: 'popularity', offset: page(true), ...(r.next() < 0.3 ? { category: cats() } : {}) }),
    'date window': () => list({ ...window(), sortBy: 'date', offset: page(), ...(r.next() < 0.3 ? { category: cats() } : {}) }),
    stats: () => '/api/events/stats',
    'facets with a search word': () => `/api/events/facets?${qs({ search: r.pick(SEARCH_TERMS), ...(r.next() < 0.3 ? { category: r.pick(CATEGORY_NAMES) } : {}) })}`,
  };
  return {
    of: (kind: Kind): Req => ({ url: make[kind](), kind }),
    mixed: (): Req => {
      const kind = r.weighted(MIX);
      return { url: make[kind](), kind };
    },
    /** A 24-event page as a visitor browses: the default list, a category, a date window. */
    page: (): Req => {
      const kind = r.weighted([['default list', 50], ['category', 30], ['date window', 20]] as const);
      return { url: make[kind](), kind };
    },
  };
}

// ---------------------------------------------------------------- load generator (worker thread)

// Runs in its own thread, so the client does not steal the server's event loop.
const LOADGEN = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, urls, concurrency, durationMs, minRequests, rate, once } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: rate ? 2000 : concurrency });
const cap = 2000000;
const lat = new Float64Array(cap), which = new Int32Array(cap), status = new Int32Array(cap);
let cacheHits = 0;
const errors = [];
let n = 0, next = 0;
const deadline = performance.now() + durationMs;
const hardDeadline = deadline + (minRequests ? 30000 : 0);
// scheduledAt: in the fixed-rate mode, latency counts from when the request was due, not from when
// it left, so a server that falls behind is charged for the wait (no coordinated omission).
function one(i, scheduledAt) {
  return new Promise((resolve) => {
    const t0 = scheduledAt ?? performance.now();
    // As a browser asks: the answers come compressed (the body is counted, not decoded).
    const req = http.get({ host: '127.0.0.1', port, path: urls[i % urls.length], agent, headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      const bad = res.statusCode !== 200;
      if (res.headers['x-cache'] === 'hit') cacheHits++;
      let body = '';
      res.on('data', (c) => { if (bad && body.length < 300) body += c; });
      res.on('end', () => {
        const k = n++;
        lat[k] = performance.now() - t0; which[k] = i % urls.length; status[k] = res.statusCode;
        if (bad && errors.length < 5) errors.push(res.statusCode + ' ' + urls[i % urls.length] + ' ' + body.slice(0, 200));
        resolve();
      });
    });
    req.setTimeout(60000, () => req.destroy(new Error('timed out after 60 s')));
    req.on('error', (e) => {
      const k = n++;
      lat[k] = performance.now() - t0; which[k] = i % urls.length; status[k] = 0;
      if (errors.length < 5) errors.push('socket ' + e.message);
      resolve();
    });
  });
}
const going = () => { const t = performance.now(); return (t < deadline || next < minRequests) && t < hardDeadline && n < cap - concurrency && !(once && next >= urls.length); };
async function loop() { while (going()) await one(next++); }
function fixedRate() {
  return new Promise((resolve) => {
    const total = Math.floor((rate * durationMs) / 1000);
    const t0 = performance.now();
    const pending = [];
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      while (next < due) { pending.push(one(next, t0 + (next * 1000) / rate)); next++; }
      if (next >= total) { clearInterval(timer); Promise.all(pending).then(resolve); }
    }, 1);
  });
}
(async () => {
  const t0 = performance.now();
  if (rate) await fixedRate();
  else await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedMs = performance.now() - t0;
  agent.destroy();
  parentPort.postMessage({ n, cacheHits, elapsedMs, errors, lat: lat.slice(0, n), which: which.slice(0, n), status: status.slice(0, n) });
})();
`;

interface LoadResult {
  /** Answers sent again from the shared-answer cache (`x-cache: hit`). */
  cacheHits: number;
  n: number;
  elapsedMs: number;
  errors: string[];
  lat: Float64Array;
  which: Int32Array;
  status: Int32Array;
}

/**
 * Closed loop: `concurrency` connections each send the next URL when their last answer is in.
 * With `rate`, open loop instead: requests leave at that many per second whatever the answers.
 * With `once`, every URL is sent once at most (and the run ends sooner when they are done).
 */
function drive(port: number, urls: string[], seconds: number, concurrency = CONCURRENCY, minRequests = 0, rate = 0, once = false): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOADGEN, { eval: true, workerData: { port, urls, concurrency, durationMs: seconds * 1000, minRequests, rate, once } });
    w.once('message', (m: LoadResult) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the load generator stopped (exit code ${code}) before it reported`)));
  });
}

interface Stats {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p975: number;
  p99: number;
  max: number;
  errors: number;
}
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
function statsOf(lat: Float64Array, elapsedMs: number, errors: number): Stats {
  const s = Float64Array.from(lat).sort();
  return { requests: s.length, rps: s.length / (elapsedMs / 1000), p50: percentile(s, 50), p95: percentile(s, 95), p975: percentile(s, 97.5), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN, errors };
}
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const pct = (x: number) => `${Math.round(x * 100)}%`;

// ---------------------------------------------------------------- EXPLAIN

/** The app again, on a drizzle instance that records every query it runs. */
export async function captureQueries(database: Database, url: string): Promise<{ sql: string; params: unknown[] }[]> {
  const captured: { sql: string; params: unknown[] }[] = [];
  // Only while the request runs: the app's start-up work (the statistics keeper's look at
  // pg_stat_user_tables, statistics.ts) is not the request's.
  let recording = false;
  const logger = { logQuery: (q: string, params: unknown[]) => void (recording && captured.push({ sql: q, params })) };
  const db = (database.pglite ? drizzlePglite(database.pglite, { schema, logger }) : drizzlePg(database.pool!, { schema, logger })) as unknown as Db;
  const app = await buildApp({
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    database: { ...database, db, close: async () => {} },
    city: PORTLAND,
    sessionSecret: 'bench-secret-bench-secret-bench-secret-01',
    webDir: null,
    logger: false,
  });
  await app.ready();
  recording = true;
  const res = await app.inject({ method: 'GET', url });
  recording = false;
  await app.close();
  if (res.statusCode !== 200) throw new Error(`capture ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return captured;
}

/** The aggregates over every listed event that are cached per events version and clock bucket (or longer). */
const WHOLE_LISTING = [
  /max\("end_date" - "start_date"\)/,
  // The listing sketch (listing-sketch.ts): one scan per events version and 5 minutes.
  /^\s*select grouping\(sh, eh, cy, cx, category, source_type, other_source_types\)/,
  /^select "(category|source_type)",( "other_source_types",)? count\(\*\)::int from "events" where \("events"."status" in \(\$1\) and "events"."end_date" > \$2 and "events"."gone_at" is null\) group by/,
  /^select count\(\*\)::int(, \(count\(\*\) filter \(where .*\)\)::int)? from "events" where \("events"."status" in \(\$\d+\) and "events"."end_date" > \$\d+ and "events"."gone_at" is null( and \("events"."series_prev_end" is null or [^)]*\))?\)$/,
];

async function explainSlowest(database: Database, url: string): Promise<{ plan: string; sql: string; params: unknown[]; execMs: number; verdict: string }> {
  const queries = await captureQueries(database, url);
  let best: { plan: string; sql: string; params: unknown[]; execMs: number } | undefined;
  for (const q of queries) {
    // An estimate's own EXPLAIN reads no rows; whole-listing aggregates run once per events
    // version and 15 s of the clock (answered from the previous 15 s meanwhile), not per request.
    // Transaction control and settings (a search's sample sets gin_fuzzy_search_limit in its own
    // transaction, in the background) are not queries to explain, nor is the statistics keeper's
    // look at the system's views (statistics.ts), which the app's start sets off in the background.
    if (/^\s*(explain|begin|commit|rollback|set|savepoint|release)\b/i.test(q.sql) || /\bfrom pg_/i.test(q.sql) || WHOLE_LISTING.some((re) => re.test(q.sql))) continue;
    let plan = '';
    let execMs = Infinity;
    // The best of three runs: the plan of a warm cache, as under load.
    for (let i = 0; i < 3; i++) {
      const { rows } = await rawQuery(database, `explain (analyze, buffers) ${q.sql}`, q.params);
      const text = rows.map((r) => String(Object.values(r)[0])).join('\n');
      const m = /Execution Time: ([\d.]+) ms/.exec(text);
      const t = m ? Number(m[1]) : NaN;
      if (t < execMs || !plan) [plan, execMs] = [text, t];
    }
    if (!best || execMs > best.execMs) best = { plan, sql: q.sql, params: q.params, execMs };
  }
  if (!best) throw new Error(`no query captured for ${url}`);
  const indexes = [...new Set([...best.plan.matchAll(/Index (?:Only )?Scan (?:Backward )?using (\w+)|Bitmap Index Scan on (\w+)/g)].map((m) => (m[1] ?? m[2])!))];
  const seqScans = [...new Set([...best.plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!))];
  const seqOnEvents = seqScans.includes('events');
  const verdict =
    (seqOnEvents || indexes.length === 0 ? 'FAIL: ' : 'PASS: ') +
    (indexes.length ? `uses ${indexes.join(', ')}` : 'uses no index') +
    (seqScans.length ? `; sequential scan of ${seqScans.join(', ')}` : '; no sequential scan') +
    ` (${best.execMs.toFixed(1)} ms alone, warm)`;
  return { ...best, verdict };
}

function printExplain(label: string, ex: Awaited<ReturnType<typeof explainSlowest>>, url: string) {
  console.log(`\n  EXPLAIN (ANALYZE, BUFFERS) of ${label}: the slowest query of GET ${decodeURIComponent(url)}`);
  console.log(`  SQL: ${ex.sql.replace(/\s+/g, ' ')}`);
  console.log(`  params: ${JSON.stringify(ex.params)}`);
  console.log(ex.plan.split('\n').map((l) => `    ${l}`).join('\n'));
  console.log(`  Index verdict: ${ex.verdict}`);
}

/** Runs `fn` under the V8 CPU profiler when --profile is given (the crowd phases' server time). */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    const file = `${PROFILE_DIR}/${name}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    console.log(`  (CPU profile of this phase: ${file})`);
    session.disconnect();
  }
}

// ---------------------------------------------------------------- phases

interface KindRow {
  kind: Kind;
  n: number;
  p50: number;
  p95: number;
  max: number;
  /** The share of answers sent again from the shared-answer cache. */
  cached: number;
  /** The request that took longest, and how long: what EXPLAIN reads for the slowest kind. */
  slowest: { url: string; ms: number };
}

/** Each kind alone on one connection: REQUESTS_PER_KIND different requests (the service time, nothing queued). */
async function perKind(port: number, nowMs: number, seed: number): Promise<KindRow[]> {
  const rows: KindRow[] = [];
  for (const kind of KINDS) {
    const g = makeGenerator(seed + KINDS.indexOf(kind), nowMs);
    const urls = Array.from({ length: REQUESTS_PER_KIND }, () => g.of(kind).url);
    // At most 30 s a kind, however slow; every URL once otherwise.
    const out = await drive(port, urls, 30, 1, 0, 0, true);
    const n = Math.min(out.n, urls.length);
    const st = statsOf(out.lat.slice(0, n), out.elapsedMs, 0);
    let worst = 0;
    for (let i = 1; i < n; i++) if (out.lat[i]! > out.lat[worst]!) worst = i;
    const slowest = { url: urls[out.which[worst]!]!, ms: out.lat[worst]! };
    rows.push({ kind, n, p50: st.p50, p95: st.p95, max: st.max, cached: out.cacheHits / Math.max(1, out.n), slowest });
    for (const e of out.errors) console.log(`      error: ${e}`);
  }
  return rows;
}

function printKinds(rows: KindRow[], targetMs: number) {
  console.log(`  ${'kind (one connection)'.padEnd(28)} ${'n'.padStart(5)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'max'.padStart(7)} ${'cached'.padStart(7)}  target p95 <= ${targetMs} ms`);
  for (const k of rows) console.log(`  ${k.kind.padEnd(28)} ${String(k.n).padStart(5)} ${ms(k.p50).padStart(7)} ${ms(k.p95).padStart(7)} ${ms(k.max).padStart(7)} ${pct(k.cached).padStart(7)}  ${k.p95 <= targetMs ? 'PASS' : 'FAIL'}`);
  for (const k of rows.filter((r) => r.p95 > targetMs)) console.log(`    slowest ${k.kind}: ${ms(k.slowest.ms)} ms, ${k.slowest.url}`);
}

/** Where a mixed phase's time went: each kind's share of the requests and its latencies within the mix. */
function printMixByKind(out: LoadResult, reqs: Req[]) {
  const byKind = new Map<Kind, number[]>();
  for (let i = 0; i < out.n; i++) {
    const kind = reqs[out.which[i]!]!.kind;
    byKind.set(kind, [...(byKind.get(kind) ?? []), out.lat[i]!]);
  }
  const parts = KINDS.filter((k) => byKind.has(k)).map((k) => {
    const st = statsOf(Float64Array.from(byKind.get(k)!), out.elapsedMs, 0);
    return `${k} ${ms(st.p50)}/${ms(st.p975)}`;
  });
  console.log(`    ${pct(out.cacheHits / Math.max(1, out.n))} sent again from the shared-answer cache; per kind within the mix, p50/p97.5 ms: ${parts.join('; ')}`);
}

function errorsOf(out: LoadResult): number {
  let errors = 0;
  for (const st of out.status) if (st !== 200) errors += 1;
  return errors;
}

/** A fresh app on the database, listening on a free port, production settings, no scheduler. */
async function serve(database: Database) {
  const app = await buildApp({
    env: parseEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01' }),
    database,
    city: PORTLAND,
    sessionSecret: 'bench-secret-bench-secret-bench-secret-01',
    webDir: null,
    logger: false,
  });
  // Requests a client gave up on still run; the next phase waits for them, so it starts clean.
  let inflight = 0;
  app.addHook('onRequest', async () => {
    inflight += 1;
  });
  app.addHook('onResponse', async () => {
    inflight -= 1;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const drained = async () => {
    const until = Date.now() + 180_000;
    while (inflight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  };
  return { app, port: (app.server.address() as AddressInfo).port, drained };
}

/** The real server (main.ts) on the bench database in `workers` cluster workers, as `npm start` runs it on PostgreSQL. */
async function serveCluster(url: string, workers: number) {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: url,
      WEB_CONCURRENCY: String(workers),
      SEED_DEMO: 'false',
      RUN_SCHEDULER: 'false',
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
      WEB_DIR: os.tmpdir() + '/townbeat-bench-no-web',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    if (Date.now() > until) throw new Error('the server did not answer /api/health within 120 s');
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // Every worker is listening once each has answered: a few more health checks reach them in turn.
  for (let i = 0; i < workers * 4; i++) await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
  return {
    port,
    drained: () => new Promise((r) => setTimeout(r, 1000)),
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const loadAverage = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');

/** PostgreSQL with EVENTS events: per kind, then a crowd of 50 connections, then a fixed offered rate. */
async function postgresBlock(database: Database) {
  const version = String((await rawQuery(database, 'show server_version')).rows[0]!.server_version);
  console.log(`\n#### PostgreSQL ${version}: ${EVENTS.toLocaleString('en-US')} events, served by ${WORKERS > 1 ? `the real server in ${WORKERS} cluster workers (WEB_CONCURRENCY=${WORKERS})` : 'one in-process server'}`);
  const now = Date.now();
  await loadData(database, now);
  const server = WORKERS > 1 ? await serveCluster(database.url!, WORKERS) : await serve(database).then((s) => ({ port: s.port, drained: s.drained, close: () => s.app.close() }));
  const { port, drained } = server;
  const result: { kinds: KindRow[]; crowd?: Stats; rate?: Stats } = { kinds: [] };
  try {
    const warm = makeGenerator(7, now);
    await drive(port, Array.from({ length: 5000 }, () => warm.mixed().url), 3);
    await drained();
    result.kinds = await perKind(port, now, 1000);
    printKinds(result.kinds, 15);
    const slowest = [...result.kinds].sort((x, y) => y.p95 - x.p95)[0]!;

    const g = makeGenerator(2000, now);
    const mixReqs = Array.from({ length: 200_000 }, () => g.mixed());
    const crowd = await profiled('postgres-crowd', () => drive(port, mixReqs.map((x) => x.url), SECONDS, CONCURRENCY));
    await drained();
    result.crowd = statsOf(crowd.lat, crowd.elapsedMs, errorsOf(crowd));
    const c = result.crowd;
    console.log(`\n  varied mix, ${CONCURRENCY} connections, ${SECONDS} s: ${c.requests} requests, ${c.rps.toFixed(0)} req/s, p50 ${ms(c.p50)}, p97.5 ${ms(c.p975)}, max ${ms(c.max)} ms, ${c.errors} errors  (target >= 1000 req/s, no errors: ${c.rps >= 1000 && c.errors === 0 ? 'PASS' : 'FAIL'})`);
    for (const e of crowd.errors) console.log(`      error: ${e}`);
    printMixByKind(crowd, mixReqs);

    const g2 = makeGenerator(3000, now);
    const offeredReqs = Array.from({ length: RATE * SECONDS + 10 }, () => g2.mixed());
    const fixed = await drive(port, offeredReqs.map((x) => x.url), SECONDS, CONCURRENCY, 0, RATE);
    await drained();
    result.rate = statsOf(fixed.lat, fixed.elapsedMs, errorsOf(fixed));
    const f = result.rate;
    console.log(`  varied mix offered at ${RATE} req/s for ${SECONDS} s: ${f.requests} requests, p50 ${ms(f.p50)}, p97.5 ${ms(f.p975)}, max ${ms(f.max)} ms, ${f.errors} errors  (target p97.5 <= 50 ms: ${f.p975 <= 50 && f.errors === 0 ? 'PASS' : 'FAIL'})`);
    for (const e of fixed.errors) console.log(`      error: ${e}`);
    printMixByKind(fixed, offeredReqs);

    // Where the slowest kind spends its time: its slowest request, asked again (now warm).
    const url = slowest.slowest.url;
    const ex = await explainSlowest(database, url);
    printExplain(`the slowest kind, "${slowest.kind}" (p95 ${ms(slowest.p95)} ms), at its slowest request (${ms(slowest.slowest.ms)} ms in the run)`, ex, url);
  } finally {
    await server.close();
  }
  return result;
}

/** The embedded default with the demo city, as `npm start` seeds it: every kind on one connection. */
async function pgliteDemoBlock() {
  console.log('\n#### PGlite (embedded, in memory), the demo city as npm start seeds it');
  const database = await openDatabase({});
  try {
    const { app, port, drained } = await serve(database);
    try {
      const seeded = await seedDemoIfEmpty({ sources: app.ingest.sources, ingestion: app.ingest.service });
      await seedFeatureDemos(app);
      const [{ n }] = (await rawQuery(database, `select count(*)::int as n from events where status = 'approved' and end_date > now()`)).rows as [{ n: number }];
      console.log(`  ${seeded.length} demo sources, ${n} approved upcoming events`);
      const now = Date.now();
      const warm = makeGenerator(7, now);
      await drive(port, Array.from({ length: 2000 }, () => warm.mixed().url), 2);
      await drained();
      const kinds = await perKind(port, now, 4000);
      printKinds(kinds, 30);
      return kinds;
    } finally {
      await app.close();
    }
  } finally {
    await closeSharedSandbox();
    await database.close();
  }
}

/** The embedded default with PGLITE_EVENTS events under a crowd browsing 24-event pages. */
async function pgliteCrowdBlock() {
  console.log(`\n#### PGlite (embedded, in memory): ${PGLITE_EVENTS.toLocaleString('en-US')} events`);
  const database = await openDatabase({});
  try {
    const now = Date.now();
    await loadData(database, now, PGLITE_EVENTS);
    const { app, port, drained } = await serve(database);
    try {
      const warm = makeGenerator(7, now);
      await drive(port, Array.from({ length: 2000 }, () => warm.page().url), 2);
      await drained();
      const g = makeGenerator(5000, now);
      const pages = Array.from({ length: 100_000 }, () => g.page().url);
      const out = await profiled('pglite-crowd', () => drive(port, pages, SECONDS, CONCURRENCY));
      await drained();
      const st = statsOf(out.lat, out.elapsedMs, errorsOf(out));
      console.log(
        `  24-event pages (default list, categories, date windows), ${CONCURRENCY} connections, ${SECONDS} s: ${st.requests} requests, ${st.rps.toFixed(0)} req/s, p50 ${ms(st.p50)}, p97.5 ${ms(st.p975)}, max ${ms(st.max)} ms, ${st.errors} errors  (target >= 150 req/s, none over 2 s: ${st.rps >= 150 && st.max <= 2000 && st.errors === 0 ? 'PASS' : 'FAIL'})`,
      );
      for (const e of out.errors) console.log(`      error: ${e}`);
      const kinds = await perKind(port, now, 6000);
      printKinds(kinds, 30);
      return { crowd: st, kinds };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------- main

async function main() {
  console.log(`Events benchmark: Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${loadAverage()} at start`);
  console.log(`(memory: a random read over 128 MB takes ${memoryLatencyNs().toFixed(0)} ns at the start, to compare runs by: the server's work waits on memory)`);
  console.log(`(every phase sends different requests: pages, categories, words, places and windows vary; ${REQUESTS_PER_KIND} requests per kind alone)`);
  console.log('(an anonymous answer already given for the same URL under the same events version, less than 15 s before, is sent again from the server\'s shared-answer cache: "cached" is that share)');
  if (ONLY !== 'pglite') {
    const url = process.env.DATABASE_URL ?? (await postgresUrl());
    if (url) await withBenchDatabase(url, (database) => postgresBlock(database));
  }
  if (ONLY !== 'postgres') {
    await pgliteCrowdBlock();
    await pgliteDemoBlock();
  }
  console.log(`\n  load average at the end: ${loadAverage()} (other work on the machine inflates every figure); a random read over 128 MB: ${memoryLatencyNs().toFixed(0)} ns`);
}

// Run when started as a script; other scripts may import the generator and loader.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
