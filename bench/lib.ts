// What the benchmarks share: a seeded generator, the app as the server builds it, iCalendar
// text, and a throwaway PostgreSQL database. Not a benchmark itself (bench/run.ts runs *.bench.ts).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app.ts';
import { PORTLAND } from '../src/server/city.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { parseEnv } from '../src/server/env.ts';
import type { SafeFetch } from '../src/server/features/ingestion/ingestion.types.ts';

export const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

/** mulberry32: small, fast and deterministic. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  /** Picks by weight: [[value, weight], ...]. */
  const weighted = <T>(xs: readonly (readonly [T, number])[]): T => {
    const total = xs.reduce((s, [, w]) => s + w, 0);
    let r = next() * total;
    for (const [v, w] of xs) if ((r -= w) < 0) return v;
    return xs[xs.length - 1]![0];
  };
  const uuid = () => {
    const h = Array.from({ length: 16 }, () => int(0, 255));
    h[6] = (h[6]! & 0x0f) | 0x40;
    h[8] = (h[8]! & 0x3f) | 0x80;
    const s = h.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  };
  return { next, int, pick, weighted, uuid };
}

export function fold(line: string): string {
  if (line.length <= 75) return line;
  const out = [line.slice(0, 75)];
  for (let i = 75; i < line.length; i += 74) out.push(` ${line.slice(i, i + 74)}`);
  return out.join('\r\n');
}
export const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:America/Los_Angeles',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0800',
  'TZOFFSETTO:-0700',
  'TZNAME:PDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0700',
  'TZOFFSETTO:-0800',
  'TZNAME:PST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];


export async function rowsOf<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}


export async function makeApp(database: Database, fetch: SafeFetch, scheduler: false | { unitSeconds: number; pollingIntervalSeconds: number }) {
  const app = await buildApp({
    env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ALLOW_PRIVATE_SOURCES: 'true' }),
    database,
    city: PORTLAND,
    sessionSecret: 'bench-secret-bench-secret-bench-secret-01',
    webDir: null,
    logger: false,
    fetch,
    scheduler,
  });
  await app.ready();
  return app;
}


/** The PostgreSQL server to benchmark: BENCH_DATABASE_URL, else the local one when it answers. */
export async function postgresUrl(): Promise<string | undefined> {
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_PG;
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return url;
  } catch (err) {
    if (process.env.BENCH_DATABASE_URL) throw new Error(`BENCH_DATABASE_URL does not answer: ${(err as Error).message}`, { cause: err });
    console.log(`\n(no PostgreSQL at ${DEFAULT_PG}: ${(err as Error).message}; PostgreSQL skipped — set BENCH_DATABASE_URL to benchmark one)`);
    return undefined;
  }
}

export async function withBenchDatabase<T>(url: string, fn: (database: Database) => Promise<T>): Promise<T> {
  const name = `townbeat_bench_${randomBytes(5).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const dropOnSignal = () => void admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => process.exit(130));
  process.once('SIGINT', dropOnSignal);
  try {
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ url: u.toString() });
    try {
      return await fn(database);
    } finally {
      await database.close();
    }
  } finally {
    process.off('SIGINT', dropOnSignal);
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}


/**
 * How fast this machine's memory answers at the moment, printed with a run so runs can be compared:
 * nanoseconds per dependent read at random over 128 MB. The server's work waits on memory (on
 * 2026-11-27, reads at about 250 ns, a ranked-search query's first run over rows already in
 * PostgreSQL's buffers took 3.4 to 11.5 ms and its second 1.2 to 1.7 ms), and this 2-core machine is
 * shared: the same code has served 300 to 1,060 requests/s at different hours.
 */
export function memoryLatencyNs(): number {
  const n = 1 << 25;
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) next[i] = i;
  const r = prng(20261127);
  // Sattolo's shuffle: one cycle through every slot, so each read waits for the one before.
  for (let i = n - 1; i > 0; i--) {
    const k = Math.floor(r.next() * i);
    const t = next[i]!;
    next[i] = next[k]!;
    next[k] = t;
  }
  const steps = 4_000_000;
  let j = 0;
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) j = next[j]!;
  const ns = ((performance.now() - t0) * 1e6) / steps;
  // j is 0 again only after n steps; the check keeps the loop from being optimised away.
  return j < 0 ? Number.NaN : ns;
}
