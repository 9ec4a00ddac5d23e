// Status checks at a year of source run history: what GET /api/health and the admin Overview
// (which polls GET /api/admin/system-status every 5 s) ask the database, and the assistant's
// "source status" over a window, once the source_runs table holds a year of ten-minute runs of
// eleven sources (578,160 rows, generated here: ours, not real data).
//   node --import tsx bench/health.bench.ts [--only pglite|postgres] [--days N] [--sources N]
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { createAssistantRepository } from '../src/server/features/assistant/assistant.repository.ts';
import { createHealthService } from '../src/server/features/health/health.service.ts';
import { createEventsService } from '../src/server/features/events/events.service.ts';
import { createEventBus } from '../src/server/lib/event-bus.ts';
import { PORTLAND } from '../src/server/city.ts';
import { systemClock } from '../src/server/clock.ts';
import { postgresUrl, withBenchDatabase } from './lib.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ONLY = arg('only');
if (ONLY && ONLY !== 'pglite' && ONLY !== 'postgres') throw new Error('--only must be pglite or postgres');
const DAYS = Number(arg('days') ?? 365);
const SOURCES = Number(arg('sources') ?? 11);
const REPEAT = 15;

/** Median and worst of REPEAT calls, each with its own argument (windows vary as admins ask). */
async function timed<T>(args: readonly T[], fn: (a: T) => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    await fn(args[i % args.length]!);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return `median ${ms[Math.floor(ms.length / 2)]!.toFixed(1)} ms, worst ${ms.at(-1)!.toFixed(1)} ms`;
}

async function block(kind: string, database: Database) {
  const db = database.db;
  const runsPerSource = (DAYS * 24 * 60) / 10;
  const t0 = performance.now();
  await db.execute(sql`insert into sources (name, connector, source_type) select 'Source ' || g, 'ical', 'ical' from generate_series(1, ${SOURCES}) g`);
  // Every tenth-minute slot of the period for each source: mostly stored, a third not modified, one in fifty failed.
  await db.execute(sql`insert into source_runs (source_id, started_at, finished_at, status, trigger, notes)
    select s.id, now() - (g * interval '10 minutes'), now() - (g * interval '10 minutes') + interval '2 seconds',
      case when g % 50 = 0 then 'error' when g % 3 = 0 then 'not_modified' else 'success' end, 'schedule', '[]'::jsonb
    from sources s cross join generate_series(1, ${runsPerSource}) g`);
  await db.execute(sql`analyze`);
  console.log(`\n### ${kind}: ${SOURCES} sources, ${(SOURCES * runsPerSource).toLocaleString('en-US')} runs over ${DAYS} days (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  const events = createEventsService({ db, clock: systemClock, city: PORTLAND, bus: createEventBus() });
  const health = createHealthService({ db, clock: systemClock, startedAt: new Date(), scheduler: () => null, eventCounts: (now) => events.stats(now) });
  const assistant = createAssistantRepository(db);
  const none = [null];
  console.log(`  health checks (each enabled source's last run)   ${await timed(none, () => health.checks())}`);
  console.log(`  last run of all (Overview "last run")            ${await timed(none, () => health.lastRun())}`);
  console.log(`  whole GET /api/health report                     ${await timed(none, () => health.report())}`);
  const windows = [1, 7, 30, 1, 2].map((d) => new Date(Date.now() - d * 86_400_000));
  console.log(`  assistant source status (1, 2, 7 or 30 days)     ${await timed(windows, (from) => assistant.runCounts(from))}`);
}

if (ONLY !== 'postgres') {
  const database = await openDatabase({});
  try {
    await block('pglite', database);
  } finally {
    await database.close();
  }
}
if (ONLY !== 'pglite') {
  const url = await postgresUrl();
  if (url) await withBenchDatabase(url, (database) => block('postgres', database));
}
