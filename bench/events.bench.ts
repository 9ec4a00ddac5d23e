// Events benchmark: 100,000 generated events, then the real app over real HTTP with 50
// concurrent keep-alive connections, on the embedded database and on PostgreSQL.
//
//   node --import tsx bench/events.bench.ts [--events N] [--seconds S] [--only pglite|postgres]
//
// PostgreSQL: BENCH_DATABASE_URL, or by default postgres://postgres@127.0.0.1:5432/test when a
// server answers there. A fresh database townbeat_bench_<random> is created and dropped.
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { buildApp } from '../src/server/app.ts';
import { PORTLAND } from '../src/server/city.ts';
import { openDatabase, type Database, type Db } from '../src/server/db/client.ts';
import * as schema from '../src/server/db/schema.ts';
import { parseEnv } from '../src/server/env.ts';
import { postgresUrl, prng, withBenchDatabase } from './lib.ts';

// ---------------------------------------------------------------- options

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}
const EVENTS = Number(flag('events') ?? 100_000);
const SECONDS = Number(flag('seconds') ?? 15);
const ONLY = flag('only') as 'pglite' | 'postgres' | undefined;
const CONCURRENCY = Number(flag('concurrency') ?? 50);
const WARMUP_SECONDS = Math.min(3, SECONDS);
const TARGET_P95_MS = 50;
if (!Number.isFinite(EVENTS) || EVENTS < 100) throw new Error('--events must be a number >= 100');
if (!Number.isFinite(SECONDS) || SECONDS <= 0) throw new Error('--seconds must be a positive number');
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
      // Start: mostly the next 90 days; 3% began in the last three days (some have ended).
      const dayOffset = r.next() < 0.03 ? -r.next() * 3 : r.next() * 90;
      const start = Math.round((now + dayOffset * 24 * HOUR) / (15 * 60_000)) * (15 * 60_000);
      const end = start + r.int(1, 4) * HOUR;
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
      b.status.push(r.weighted([['approved', 90], ['pending', 6], ['rejected', 4]] as const));
    }
    done += n;
    yield b;
  }
}

// ---------------------------------------------------------------- loading

type Rows = { rows: Record<string, unknown>[] };
type Query = (text: string, params?: unknown[]) => Promise<Rows>;

/** Runs one statement with parameters on whichever driver is underneath. */
async function rawQuery(database: Database, text: string, params: unknown[] = []): Promise<Rows> {
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
  status, favorite_count)
select id, title, description, category, category_confidence, source_type, source_url, start_date, end_date,
  '${PORTLAND.timeZone}', all_day, venue_id, venue_name, address, neighbourhood, lat, lng, attendee_count, price, is_free, is_verified,
  status, favorite_count
from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::real[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[],
  $10::boolean[], $11::uuid[], $12::text[], $13::text[], $14::text[], $15::float8[], $16::float8[], $17::int[], $18::numeric[],
  $19::boolean[], $20::boolean[], $21::text[], $22::int[])
  as t(id, title, description, category, category_confidence, source_type, source_url, start_date, end_date, all_day, venue_id,
    venue_name, address, neighbourhood, lat, lng, attendee_count, price, is_free, is_verified, status, favorite_count)`;

const INSERT_SOURCES = `
insert into event_sources (event_id, source_type, url, name, external_id)
select e, s, u, n, x from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) as t(e, s, u, n, x)`;

async function loadData(database: Database, now: number): Promise<void> {
  await withConnection(database, (q) => load(q, now, database.kind));
}

async function load(q: Query, now: number, kind: Database['kind']): Promise<void> {
  const t0 = performance.now();
  // Bulk load as one would: the migrated indexes are dropped, the rows inserted, and the very
  // same index definitions (read back from pg_indexes) built again.
  await q(`set maintenance_work_mem = '${kind === 'pglite' ? 128 : 256}MB'`);
  const { rows: defs } = await q(
    `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'events'
       and indexname not in (select conname from pg_constraint where conrelid = 'events'::regclass)`,
  );
  for (const d of defs) await q(`drop index "${String(d.indexname)}"`);
  const venues = generateVenues(1500);
  await q(
    `insert into venues (id, name, address, neighbourhood, lat, lng)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[])`,
    [venues.map((v) => v.id), venues.map((v) => v.name), venues.map((v) => v.address), venues.map((v) => v.neighbourhood), venues.map((v) => v.lat), venues.map((v) => v.lng)],
  );
  const feedNames = (s: string, i: number) => `${s} feed ${i % 40}`;
  let inserted = 0;
  for (const b of generateEvents(EVENTS, 5000, venues, now)) {
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
  const analyzeMs = performance.now() - t2;
  const [{ n }] = (await q(`select count(*)::int as n from events where status = 'approved' and end_date > now()`)).rows as [{ n: number }];
  const [{ size }] = (await q(`select pg_size_pretty(pg_total_relation_size('events')) as size`)).rows as [{ size: string }];
  console.log(
    `  loaded ${inserted.toLocaleString('en-US')} events (${n.toLocaleString('en-US')} approved and upcoming; events with its ${defs.length + 1} indexes ${size}): ` +
      `insert ${(loadMs / 1000).toFixed(1)} s (${Math.round(inserted / (loadMs / 1000)).toLocaleString('en-US')} rows/s in 5,000-row unnest batches, with a source row each), ` +
      `index build ${(indexMs / 1000).toFixed(1)} s, VACUUM ANALYZE ${(analyzeMs / 1000).toFixed(1)} s`,
  );
}

// ---------------------------------------------------------------- scenarios

interface Req {
  url: string;
  /** The query shape, for finding the slowest one. */
  shape: string;
}
type ScenarioName = 'lists' | 'search' | 'distance' | 'facets+stats' | 'mixed';
const SCENARIOS: { name: ScenarioName; label: string; target: boolean }[] = [
  { name: 'lists', label: '(a) filtered lists', target: true },
  { name: 'search', label: '(b) search, by relevance', target: true },
  { name: 'distance', label: '(c) distance, by distance', target: false },
  { name: 'facets+stats', label: '(d) facets + stats', target: false },
  { name: 'mixed', label: '(e) mixed', target: false },
];

const SEARCH_TERMS: Record<string, string[]> = {
  broad: ['music', 'night', 'community', 'portland', 'free', 'live', 'workshop', 'festival'],
  medium: ['jazz', 'yoga', 'trivia', 'brewery', 'hackathon', 'pottery', 'marathon', 'networking', 'tasting', 'karaoke'],
  rare: ['theremin', 'kombucha', 'origami', 'axolotl', 'calligraphy', 'sourdough', 'kintsugi', 'falconry'],
  substring: ['arde', 'hack', 'ombuch', 'ickleb', 'ytho', 'qzx'],
  phrase: ['jazz night', 'farmers market', '"open mic"', 'yoga -beginner', 'craft beer tasting'],
};

function makeGenerator(seed: number, nowMs: number) {
  const r = prng(seed);
  const DAY = 86_400_000;
  const qs = (o: Record<string, string | number | undefined>) =>
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
  const cats = () => {
    const a = r.pick(CATEGORY_NAMES);
    if (r.next() < 0.5) return a;
    const b = r.pick(CATEGORY_NAMES.filter((c) => c !== a));
    return `${a},${b}`;
  };
  // Fixed points in time so identical windows repeat, as real clients' would within a day.
  const windowOf = (w: string) => {
    const start = new Date(Math.floor(nowMs / 3600_000) * 3600_000);
    const days = w === 'today' ? 1 : w === 'week' ? 7 : 30;
    return { startDate: start.toISOString(), endDate: new Date(start.getTime() + days * DAY).toISOString() };
  };

  const list = (): Req => {
    const hasCat = r.next() < 0.7;
    const hasSrc = r.next() < 0.4;
    const w = r.pick(['none', 'today', 'week', 'month']);
    const sort = r.pick(['date', 'popularity']);
    const offset = r.pick([0, 24, 48]);
    const q: Record<string, string | number | undefined> = { sortBy: sort, offset, limit: 24 };
    if (hasCat) q.category = cats();
    if (hasSrc) q.sourceType = r.pick(SOURCE_NAMES);
    if (w !== 'none') Object.assign(q, windowOf(w));
    const shape = `list ${[hasCat ? 'category' : '', hasSrc ? 'source' : '', w !== 'none' ? w : ''].filter(Boolean).join('+') || 'all'} sort=${sort}`;
    return { url: `/api/events?${qs(q)}`, shape };
  };
  const search = (): Req => {
    const kind = r.weighted([['broad', 30], ['medium', 30], ['rare', 15], ['substring', 10], ['phrase', 15]] as const);
    const q: Record<string, string | number | undefined> = { search: r.pick(SEARCH_TERMS[kind]!), sortBy: 'relevance', limit: 24, offset: r.next() < 0.8 ? 0 : 24 };
    const withCat = r.next() < 0.25;
    if (withCat) q.category = r.pick(CATEGORY_NAMES);
    return { url: `/api/events?${qs(q)}`, shape: `search ${kind}${withCat ? '+category' : ''}` };
  };
  const distance = (): Req => {
    const radius = r.int(1, 10);
    const lat = (45.45 + r.next() * 0.13).toFixed(4);
    const lng = (-122.78 + r.next() * 0.26).toFixed(4);
    const withCat = r.next() < 0.3;
    const q: Record<string, string | number | undefined> = { lat, lng, radius, sortBy: 'distance', limit: 24, offset: r.pick([0, 0, 24]) };
    if (withCat) q.category = r.pick(CATEGORY_NAMES);
    const band = radius <= 3 ? '1-3' : radius <= 6 ? '4-6' : '7-10';
    return { url: `/api/events?${qs(q)}`, shape: `distance ${band} mi${withCat ? '+category' : ''}` };
  };
  const facets = (): Req => {
    const x = r.next();
    if (x < 0.25) return { url: '/api/events/stats', shape: 'stats' };
    const q: Record<string, string | number | undefined> = {};
    let shape = 'facets';
    if (x < 0.55) {
      q.category = cats();
      shape += ' category';
    } else if (x < 0.8) {
      q.search = r.pick([...SEARCH_TERMS.medium!, ...SEARCH_TERMS.broad!]);
      shape += ' search';
    } else shape += ' all';
    return { url: `/api/events/facets?${qs(q)}`, shape };
  };
  const mixed = (): Req => r.weighted([[list, 40], [search, 25], [distance, 15], [facets, 20]] as const)();
  return { lists: list, search, distance, 'facets+stats': facets, mixed } satisfies Record<ScenarioName, () => Req>;
}

// ---------------------------------------------------------------- load generator (worker thread)

// Runs in its own thread, so the client does not steal the server's event loop.
const LOADGEN = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, urls, concurrency, durationMs, minRequests } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const cap = 2000000;
const lat = new Float64Array(cap), which = new Int32Array(cap), status = new Int32Array(cap);
const errors = [];
let n = 0, next = 0;
const deadline = performance.now() + durationMs;
const hardDeadline = deadline + (minRequests ? 30000 : 0);
function one(i) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = http.get({ host: '127.0.0.1', port, path: urls[i % urls.length], agent }, (res) => {
      const bad = res.statusCode !== 200;
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
const going = () => { const t = performance.now(); return (t < deadline || next < minRequests) && t < hardDeadline && n < cap - concurrency; };
async function loop() { while (going()) await one(next++); }
(async () => {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsedMs = performance.now() - t0;
  agent.destroy();
  parentPort.postMessage({ n, elapsedMs, errors, lat: lat.slice(0, n), which: which.slice(0, n), status: status.slice(0, n) });
})();
`;

interface LoadResult {
  n: number;
  elapsedMs: number;
  errors: string[];
  lat: Float64Array;
  which: Int32Array;
  status: Int32Array;
}

/** Closed loop: `concurrency` connections each send the next URL when their last answer is in. */
function drive(port: number, urls: string[], seconds: number, concurrency = CONCURRENCY, minRequests = 0): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOADGEN, { eval: true, workerData: { port, urls, concurrency, durationMs: seconds * 1000, minRequests } });
    w.once('message', (m: LoadResult) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

interface Stats {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
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
  return { requests: s.length, rps: s.length / (elapsedMs / 1000), p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN, errors };
}
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

// ---------------------------------------------------------------- EXPLAIN

/** The app again, on a drizzle instance that records every query it runs. */
async function captureQueries(database: Database, url: string): Promise<{ sql: string; params: unknown[] }[]> {
  const captured: { sql: string; params: unknown[] }[] = [];
  const logger = { logQuery: (q: string, params: unknown[]) => void captured.push({ sql: q, params }) };
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
  const res = await app.inject({ method: 'GET', url });
  await app.close();
  if (res.statusCode !== 200) throw new Error(`capture ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return captured;
}

async function explainSlowest(database: Database, url: string): Promise<{ plan: string; sql: string; params: unknown[]; execMs: number; verdict: string }> {
  const queries = await captureQueries(database, url);
  let best: { plan: string; sql: string; params: unknown[]; execMs: number } | undefined;
  for (const q of queries) {
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

// ---------------------------------------------------------------- one database

interface BlockResult {
  db: 'pglite' | 'postgres';
  load: string;
  scenarios: Map<ScenarioName, Stats & { aloneP50: number }>;
}

interface ShapeStat {
  shape: string;
  n: number;
  p50: number;
  /** A request of the shape near its slow end, to EXPLAIN. */
  url: string;
}

/** Latency per query shape of one run. */
function byShape(out: LoadResult, reqs: Req[]): ShapeStat[] {
  const groups = new Map<string, number[]>();
  for (let i = 0; i < out.n; i++) {
    const shape = reqs[out.which[i]!]!.shape;
    (groups.get(shape) ?? groups.set(shape, []).get(shape)!).push(i);
  }
  return [...groups.entries()]
    .map(([shape, idx]) => {
      const sorted = [...idx].sort((a, b) => out.lat[a]! - out.lat[b]!);
      const at = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))]!;
      return { shape, n: idx.length, p50: out.lat[sorted[Math.floor((sorted.length - 1) / 2)]!]!, url: reqs[out.which[at]!]!.url };
    })
    .sort((a, b) => b.p50 - a.p50);
}

function printExplain(label: string, ex: Awaited<ReturnType<typeof explainSlowest>>, url: string) {
  console.log(`\n  EXPLAIN (ANALYZE, BUFFERS) of ${label}: the slowest query of GET ${decodeURIComponent(url)}`);
  console.log(`  SQL: ${ex.sql.replace(/\s+/g, ' ')}`);
  console.log(`  params: ${JSON.stringify(ex.params)}`);
  console.log(ex.plan.split('\n').map((l) => `    ${l}`).join('\n'));
  console.log(`  Index verdict: ${ex.verdict}`);
}

async function runBlock(kind: 'pglite' | 'postgres', database: Database): Promise<BlockResult> {
  const title = kind === 'pglite' ? 'embedded PGlite (in memory)' : `PostgreSQL ${(await rawQuery(database, 'show server_version')).rows[0]!.server_version}`;
  console.log(`\n#### ${title}: ${EVENTS.toLocaleString('en-US')} events, ${CONCURRENCY} concurrent connections, ${SECONDS} s per scenario`);
  const now = Date.now();
  const tLoad = performance.now();
  await loadData(database, now);
  const load = `${((performance.now() - tLoad) / 1000).toFixed(1)} s`;

  const app = await buildApp({
    env: parseEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01' }),
    database,
    city: PORTLAND,
    sessionSecret: 'bench-secret-bench-secret-bench-secret-01',
    webDir: null,
    logger: false,
  });
  // Requests a client gave up on still run; the next scenario waits for them, so it starts clean.
  let inflight = 0;
  app.addHook('onRequest', async () => {
    inflight += 1;
  });
  app.addHook('onResponse', async () => {
    inflight -= 1;
  });
  const drained = async () => {
    const until = Date.now() + 180_000;
    while (inflight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  };
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const results = new Map<ScenarioName, Stats & { aloneP50: number }>();
  const slowest = new Map<ScenarioName, ShapeStat>();
  const aloneSeconds = Math.min(3, SECONDS);
  try {
    const gen = makeGenerator(1234, now);
    const warm = Array.from({ length: 5000 }, () => gen.mixed().url);
    await drive(port, warm, WARMUP_SECONDS);
    await drained();
    console.log(
      `  (after ${WARMUP_SECONDS} s of mixed warm-up; "alone" is the same mix on one connection for ${aloneSeconds} s and at least 20 requests after each run: the service time without queueing)`,
    );
    console.log(
      `  ${'scenario'.padEnd(28)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)} ${'errors'.padStart(6)} | alone: p50     p95  (ms)`,
    );
    for (const sc of SCENARIOS) {
      const g = makeGenerator(100 + SCENARIOS.indexOf(sc), now);
      const reqs = Array.from({ length: 40_000 }, () => g[sc.name]());
      const urls = reqs.map((x) => x.url);
      const out = await drive(port, urls, SECONDS);
      await drained();
      let errors = 0;
      for (const st of out.status) if (st !== 200) errors += 1;
      const st = statsOf(out.lat, out.elapsedMs, errors);
      // The same request mix on one connection: what each request costs when nothing queues.
      const alone = await drive(port, urls, aloneSeconds, 1, 20);
      await drained();
      const a = statsOf(alone.lat, alone.elapsedMs, 0);
      results.set(sc.name, { ...st, aloneP50: a.p50 });
      console.log(
        `  ${sc.label.padEnd(28)} ${String(st.requests).padStart(8)} ${st.rps.toFixed(0).padStart(7)} ${ms(st.p50).padStart(7)} ${ms(st.p95).padStart(7)} ${ms(st.p99).padStart(7)} ${ms(st.max).padStart(7)} ${String(errors).padStart(6)} |  ${ms(a.p50).padStart(9)} ${ms(a.p95).padStart(7)}`,
      );
      for (const e of out.errors) console.log(`      error: ${e}`);
      const shapes = byShape(alone, reqs);
      if (sc.name !== 'mixed') {
        console.log(`      slowest shapes alone: ${shapes.slice(0, 3).map((x) => `${x.shape} (p50 ${ms(x.p50)}, n=${x.n})`).join('; ')}`);
        if (shapes[0]) slowest.set(sc.name, shapes[0]);
      }
    }
  } finally {
    await app.close();
  }

  // EXPLAIN the slowest query of the slowest shape of the issue's scenarios (lists, search),
  // and of the slowest scenario overall when that is another one.
  const rank = (names: ScenarioName[]) => names.filter((n) => slowest.has(n)).sort((x, y) => slowest.get(y)!.p50 - slowest.get(x)!.p50)[0];
  const targetWorst = rank(SCENARIOS.filter((x) => x.target).map((x) => x.name));
  const overallWorst = rank(SCENARIOS.map((x) => x.name));
  for (const [label, name] of [
    ['the issue scenarios (lists, search)', targetWorst],
    ['all scenarios', overallWorst !== targetWorst ? overallWorst : undefined],
  ] as const) {
    if (!name) continue;
    const shape = slowest.get(name)!;
    const ex = await explainSlowest(database, shape.url);
    printExplain(`the slowest shape of ${label}, "${shape.shape}" (${name}, alone p50 ${ms(shape.p50)} ms)`, ex, shape.url);
  }
  return { db: kind, load, scenarios: results };
}

// ---------------------------------------------------------------- main

async function main() {
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`Events benchmark: Node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, load average ${load} at start`);
  const blocks: BlockResult[] = [];
  if (ONLY !== 'postgres') {
    const database = await openDatabase({});
    try {
      blocks.push(await runBlock('pglite', database));
    } finally {
      await database.close();
    }
  }
  if (ONLY !== 'pglite') {
    const url = await postgresUrl();
    if (url) blocks.push(await withBenchDatabase(url, (database) => runBlock('postgres', database)));
  }

  console.log(`\n#### Summary: ${EVENTS.toLocaleString('en-US')} events, ${CONCURRENCY} concurrent, ${SECONDS} s per scenario (latencies in ms; alone = p50 on one connection)`);
  const head = blocks.map((b) => `${b.db.padEnd(8)} ${'req/s'.padStart(6)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'err'.padStart(4)} ${'alone'.padStart(6)}`).join(' | ');
  console.log(`  ${'scenario'.padEnd(28)} | ${head}`);
  for (const sc of SCENARIOS) {
    const cells = blocks.map((b) => {
      const s = b.scenarios.get(sc.name);
      return s
        ? `${''.padEnd(8)} ${s.rps.toFixed(0).padStart(6)} ${ms(s.p50).padStart(7)} ${ms(s.p95).padStart(7)} ${ms(s.p99).padStart(7)} ${String(s.errors).padStart(4)} ${ms(s.aloneP50).padStart(6)}`
        : ''.padEnd(52);
    });
    console.log(`  ${sc.label.padEnd(28)} | ${cells.join(' | ')}`);
  }
  console.log(`  load (insert, index build, VACUUM ANALYZE): ${blocks.map((b) => `${b.db} ${b.load}`).join(', ')}`);
  const end = (await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`  load average at the end: ${end} (other work on the machine inflates every figure)`);
  const pgBlock = blocks.find((b) => b.db === 'postgres');
  if (pgBlock) {
    for (const sc of SCENARIOS) {
      const s = pgBlock.scenarios.get(sc.name);
      if (!s) continue;
      const ok = s.p95 < TARGET_P95_MS && s.errors === 0;
      console.log(`  PostgreSQL p95 < ${TARGET_P95_MS} ms at ${CONCURRENCY} concurrent: ${ok ? 'PASS' : 'FAIL'}  ${sc.label} (p95 ${ms(s.p95)} ms)${sc.target ? '' : '  [outside the issue target]'}`);
    }
  }
  const errors = blocks.reduce((n, b) => n + [...b.scenarios.values()].reduce((m, s) => m + s.errors, 0), 0);
  if (errors) {
    console.log(`\n${errors} requests failed`);
    process.exitCode = 1;
  }
}

await main();
