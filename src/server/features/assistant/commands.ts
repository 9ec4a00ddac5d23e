// The assistant's allow-list: every command it can run, each with a zod schema of its arguments,
// whether it changes anything (then the admin must confirm), what it would do in words, and how it
// runs — always through existing services or typed queries, never a shell or SQL from text.

import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { z } from 'zod';
import type { CommandType } from '../../../contract/assistant.ts';
import type { CityConfig } from '../../../contract/city.ts';
import { Category, DATE_RANGE_MS, EventListQuery } from '../../../contract/events.ts';
import type { HealthResponse } from '../../../contract/health.ts';
import { formatEventDay, formatEventWhen, zonedDayBounds } from '../../../contract/time.ts';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import type { AuditRepository } from '../admin/audit.repository.ts';
import type { EventsService } from '../events/events.service.ts';
import type { ImageJob } from '../images/images.job.ts';
import type { IngestionService } from '../ingestion/ingestion.service.ts';
import type { Scheduler } from '../ingestion/scheduler.ts';
import type { AssistantRepository } from './assistant.repository.ts';

const migrationsFolder = fileURLToPath(new URL('../../db/migrations', import.meta.url));
const DAY_MS = 24 * 3600 * 1000;
/** An image claimed this long ago and still pending lost its worker (the images service's lease). */
const IMAGE_LEASE_MS = 10 * 60_000;

/** What commands may use: the app's own services, handed over in app.ts. */
export interface CommandContext {
  repo: AssistantRepository;
  database: Database;
  clock: Clock;
  timeZone: string;
  /** The city's name, locale (for times shown) and neighbourhoods (what counts may be filtered by). */
  city: Pick<CityConfig, 'name' | 'locale' | 'neighbourhoods'>;
  health: { report(): Promise<HealthResponse> };
  events: Pick<EventsService, 'setStatus' | 'stats' | 'facets'>;
  ingestion: Pick<IngestionService, 'runSource'>;
  audit: AuditRepository;
  /** Read when the command runs: the app decorates them after the assistant is built. */
  scheduler: () => Scheduler | null;
  images: () => ImageJob | null;
}

export interface CommandOutcome {
  text: string;
  result: Record<string, unknown>;
}

export interface CommandDef<S extends z.ZodType = z.ZodType> {
  type: CommandType;
  changing: boolean;
  /** One line for help and for the model's tool description. */
  summary: string;
  args: S;
  /** The audit target, when there is one. */
  target?: (args: z.output<S>) => string | null;
  /** Exactly what running it would do (changing commands), in words. */
  describe: (args: z.output<S>, ctx: CommandContext) => Promise<string>;
  /** `actorId`: the admin who asked (a decision on a member's event tells them it came from a review). */
  run: (args: z.output<S>, ctx: CommandContext, actorId: string) => Promise<CommandOutcome>;
}

/** Data from events, feeds and users is shown quoted, escaped onto one line: it is never read as an instruction. */
export const quote = (s: string | null | undefined) => JSON.stringify((s ?? '').slice(0, 200));

export const WINDOWS = ['today', 'week', 'month'] as const;
export const CACHES = ['events', 'feeds'] as const;
export const SERVICES = ['scheduler', 'images'] as const;

export const CACHE_DESCRIPTIONS: Record<(typeof CACHES)[number], string> = {
  events: 'the events aggregate cache (list totals, facets and stats), by moving the events version so every figure is counted afresh',
  feeds: "the feeds' HTTP validators (ETag and Last-Modified), so every source's next run downloads its feed in full",
};

/** What Discover's date range of the same name covers (spec section 9), and how the answer says it. */
const WINDOW_SAID: Record<(typeof WINDOWS)[number], { label: string; discover: string }> = {
  today: { label: 'in the next 24 hours', discover: 'Today' },
  week: { label: 'in the next 7 days', discover: 'This week' },
  month: { label: 'in the next 30 days', discover: 'This month' },
};

function pastFrom(window: (typeof WINDOWS)[number] | 'all', ctx: CommandContext) {
  const now = ctx.clock.now();
  // The city's calendar day, named as its people read it ("today (Fri, Nov 27)").
  if (window === 'today') return { from: zonedDayBounds(now, ctx.timeZone).start, label: `today (${formatEventDay(now, ctx.timeZone, ctx.city.locale, now)})` };
  if (window === 'week') return { from: new Date(now.getTime() - 7 * DAY_MS), label: 'in the last 7 days' };
  if (window === 'month') return { from: new Date(now.getTime() - 30 * DAY_MS), label: 'in the last 30 days' };
  return { from: new Date(0), label: 'ever' };
}

const fmtBytes = (n: number | null) => (n == null ? 'unknown' : n > 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.round(n / 1024)} kB`);
const fmtUptime = (ms: number) => {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : h ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
};

async function migrateAgain(database: Database): Promise<void> {
  // The migrator records what it applied: a second run applies only what is missing (nothing, normally).
  if (database.kind === 'pglite' && database.pglite) await migratePglite(drizzlePglite(database.pglite), { migrationsFolder });
  else if (database.pool) await migratePg(drizzlePg(database.pool), { migrationsFolder });
  else throw new Error('no database handle to migrate with');
}

const nEvents = (n: number) => `${n} event${n === 1 ? '' : 's'}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** An instant as the rest of the app shows it: on the city's clocks, 'Fri, Nov 27 · 11:02 PM'. */
const cityTime = (d: Date, ctx: CommandContext) => formatEventWhen({ startDate: d.toISOString(), allDay: false }, ctx.timeZone, ctx.city.locale, ctx.clock.now());

const NoArgs = z.object({});
const Uuid = z.uuid();

const healthCheck: CommandDef<typeof NoArgs> = {
  type: 'health_check',
  changing: false,
  summary: 'System health check: status, uptime, database round trip, event and user totals, background jobs',
  args: NoArgs,
  describe: async () => 'Reads the system health.',
  async run(_args, ctx) {
    const t0 = performance.now();
    await ctx.repo.ping();
    const dbMs = Math.round((performance.now() - t0) * 10) / 10;
    const h = await ctx.health.report();
    const s = h.health.metrics.storage;
    // What is listed, as Discover, the Admin Overview and /api/health count it (/api/events/stats).
    const listed = { events: s.totalEvents, today: s.todayEvents };
    const scheduler = ctx.scheduler() ? 'running' : 'not running in this instance';
    const text = [
      `System status: ${h.status}.`,
      `Uptime ${fmtUptime(h.health.metrics.system.uptime)}; database answered in ${dbMs} ms.`,
      `${nEvents(listed.events)} listed now (${listed.today} still to come or under way today); ${s.totalUsers} users.`,
      `Source scheduler: ${scheduler}.`,
    ].join('\n');
    return { text, result: { status: h.status, uptimeMs: h.health.metrics.system.uptime, databaseMs: dbMs, listed, storage: s, scheduler } };
  },
};

const databaseStatus: CommandDef<typeof NoArgs> = {
  type: 'database_status',
  changing: false,
  summary: 'Database status: connection round trip, size, migrations applied and row counts',
  args: NoArgs,
  describe: async () => 'Reads the database status.',
  async run(_args, ctx) {
    const t0 = performance.now();
    await ctx.repo.ping();
    const roundTripMs = Math.round((performance.now() - t0) * 10) / 10;
    const [size, counts, migrations] = [await ctx.repo.databaseSize(), await ctx.repo.tableCounts(), await ctx.repo.appliedMigrations()];
    const ev = Object.entries(counts.events)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    const text = [
      `Database (${ctx.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}) is connected: round trip ${roundTripMs} ms, size ${fmtBytes(size)}${migrations == null ? '' : `, ${migrations} migrations applied`}.`,
      `Events: ${ev || 'none'}. Users ${counts.users}, sources ${counts.sources}, stories ${counts.stories}, images ${counts.images}, audit entries ${counts.auditLog}, logged errors ${counts.errorLog}.`,
    ].join('\n');
    return { text, result: { kind: ctx.database.kind, roundTripMs, sizeBytes: size, migrations, counts } };
  },
};

const ErrorLogArgs = z.object({ limit: z.number().int().min(1).max(50).default(10), origin: z.string().trim().min(1).max(40).optional() });
const errorLogs: CommandDef<typeof ErrorLogArgs> = {
  type: 'error_logs',
  changing: false,
  summary: 'Recent server errors (unhandled 5xx, failed source runs), newest first',
  args: ErrorLogArgs,
  describe: async () => 'Reads the error log.',
  async run(args, ctx) {
    const rows = (await ctx.audit.listErrors(args.origin ? 200 : args.limit)).filter((r) => !args.origin || r.origin === args.origin).slice(0, args.limit);
    const items = rows.map((r) => ({ at: r.at.toISOString(), atCityTime: cityTime(r.at, ctx), level: r.level, origin: r.origin, message: r.message }));
    const text = rows.length
      ? [`The ${rows.length} most recent logged errors${args.origin ? ` from ${args.origin}` : ''}:`, ...items.map((r) => `- ${r.atCityTime} [${r.origin}] ${quote(r.message)}`)].join('\n')
      : `No errors logged${args.origin ? ` from ${args.origin}` : ''}.`;
    return { text, result: { errors: items } };
  },
};

const SourceStatusArgs = z.object({ window: z.enum([...WINDOWS, 'all']).default('today'), failedOnly: z.boolean().default(false), sourceId: Uuid.optional() });
const sourceStatus: CommandDef<typeof SourceStatusArgs> = {
  type: 'source_status',
  changing: false,
  summary: 'Source status: last runs, failures, errors and entries left out per feed (optionally only failed ones, or one source)',
  args: SourceStatusArgs,
  describe: async () => 'Reads the sources and their runs.',
  async run(args, ctx) {
    const { from, label } = pastFrom(args.window, ctx);
    const [all, runs] = [await ctx.repo.listSources(), await ctx.repo.runCounts(from)];
    const runsOf = (id: string) => runs.filter((r) => r.sourceId === id);
    const rows = all
      .filter((s) => !args.sourceId || s.id === args.sourceId)
      .map((s) => {
        const mine = runsOf(s.id);
        const failed = mine.filter((r) => r.status === 'error').reduce((n, r) => n + r.n, 0);
        const total = mine.reduce((n, r) => n + r.n, 0);
        return {
          id: s.id,
          name: s.name,
          enabled: s.enabled,
          runs: total,
          failedRuns: failed,
          lastRunAt: s.lastRunAt?.toISOString() ?? null,
          lastRunAtCityTime: s.lastRunAt ? cityTime(s.lastRunAt, ctx) : null,
          lastSuccessAt: s.lastSuccessAt?.toISOString() ?? null,
          lastError: s.lastError,
          consecutiveFailures: s.consecutiveFailures,
          lastRunSkipped: s.lastRunSkipped,
          lastRunHeld: s.lastRunHeld,
          lastRunHeldReason: s.lastRunHeldReason,
        };
      });
    const shown = args.failedOnly ? rows.filter((r) => r.failedRuns > 0) : rows;
    const line = (r: (typeof rows)[number]) =>
      `- ${quote(r.name)}${r.enabled ? '' : ' (disabled)'}: ${plural(r.runs, 'run')} ${label}, ${r.failedRuns} failed; last run ${r.lastRunAtCityTime ?? 'never'}${r.lastRunSkipped ? `, which left out ${r.lastRunSkipped} entr${r.lastRunSkipped === 1 ? 'y' : 'ies'} of the feed (see its History)` : ''}${r.lastRunHeld ? `, and did not meet ${r.lastRunHeld} of its listed event${r.lastRunHeld === 1 ? '' : 's'}, kept listed until a later run shows ${r.lastRunHeld === 1 ? 'it is' : 'they are'} gone${r.lastRunHeldReason === 'sudden-drop' ? ` (most of the source at once: an admin who knows ${r.lastRunHeld === 1 ? 'it is' : 'they are'} gone can remove ${r.lastRunHeld === 1 ? 'it' : 'them'} now on its card)` : ''}` : ''}${r.lastError ? `; last error ${quote(r.lastError)}` : ''}`;
    let text: string;
    if (args.failedOnly) text = shown.length ? [`${shown.length} source${shown.length === 1 ? '' : 's'} failed ${label}:`, ...shown.map(line)].join('\n') : `No source failed ${label} (${rows.length} sources checked).`;
    else text = shown.length ? [`${shown.length} source${shown.length === 1 ? '' : 's'}:`, ...shown.map(line)].join('\n') : 'No sources are configured.';
    return { text, result: { window: args.window, failedOnly: args.failedOnly, sources: shown } };
  },
};

const PendingArgs = z.object({ limit: z.number().int().min(1).max(100).default(10) });
const pendingReview: CommandDef<typeof PendingArgs> = {
  type: 'pending_review',
  changing: false,
  summary: 'How many events wait for review, with the newest of them (and reported stories hidden until reviewed)',
  args: PendingArgs,
  describe: async () => 'Reads the review queue.',
  async run(args, ctx) {
    const [count, refs, reported] = [await ctx.repo.countPending(ctx.clock.now()), await ctx.repo.listPendingRefs(args.limit, ctx.clock.now()), await ctx.repo.reportedStories(args.limit)];
    const lines = count
      ? [`${count} event${count === 1 ? '' : 's'} waiting for review.${count > refs.length ? ` The newest ${refs.length}:` : ''}`, ...refs.map((e) => `- ${quote(e.title)} (id ${e.id})`)]
      : ['No events are waiting for review.'];
    if (reported.length) lines.push(`${reported.length} reported stor${reported.length === 1 ? 'y is' : 'ies are'} hidden until reviewed:`, ...reported.map((s) => `- ${quote(s.title)} by ${quote(s.author)}: ${quote(s.content.slice(0, 100))}`));
    const stories = reported.map((s) => ({ id: s.id, title: s.title, author: s.author, preview: s.content.slice(0, 100) }));
    return { text: lines.join('\n'), result: { count, events: refs, reportedStories: stories } };
  },
};

const EventCountArgs = z.object({
  window: z.enum([...WINDOWS, 'all']).default('week'),
  /** Only these categories (Discover's category filter). */
  categories: z.array(Category).min(1).max(8).optional(),
  /** Only events in these of the city's neighbourhoods (names as the city lists them). */
  neighbourhoods: z.array(z.string().trim().min(1).max(80)).min(1).max(30).optional(),
  /** Only these source types (Discover's source filter). */
  sourceTypes: z.array(z.string().trim().toLowerCase().min(1).max(40)).min(1).max(20).optional(),
});

/** "Music", "Music or Food": the words for a list of alternatives. */
const either = (xs: readonly string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);

const eventsByCategory: CommandDef<typeof EventCountArgs> = {
  type: 'events_by_category',
  changing: false,
  summary:
    "Listed events counted as Discover counts them (a recurring event once, those over left out): all listed now, or today, this week or this month as Discover's date ranges, optionally only some categories, neighbourhoods or source types, by category",
  args: EventCountArgs,
  describe: async () => 'Counts events by category.',
  async run(args, ctx) {
    const now = ctx.clock.now();
    // Names as the city lists them: the listing matches them in any case, the answer says them right.
    const unknown = (args.neighbourhoods ?? []).filter((n) => !ctx.city.neighbourhoods.some((c) => c.name.toLowerCase() === n.toLowerCase()));
    if (unknown.length) throw new Error(`${either(unknown.map((n) => quote(n)))} is not one of ${ctx.city.name}'s neighbourhoods (${ctx.city.neighbourhoods.map((c) => c.name).join(', ')}).`);
    const places = args.neighbourhoods?.map((n) => ctx.city.neighbourhoods.find((c) => c.name.toLowerCase() === n.toLowerCase())!.name);
    const range = args.window === 'all' ? null : DATE_RANGE_MS[args.window];
    // Discover's own query: GET /api/events and /api/events/facets with the same filters, the date
    // range counted from now as Discover counts it, so the figures agree with what it shows.
    const query: EventListQuery = {
      ...EventListQuery.parse({}),
      category: args.categories,
      sourceType: args.sourceTypes,
      neighbourhood: places,
      startDate: range ? now : undefined,
      endDate: range ? new Date(now.getTime() + range) : undefined,
    };
    const f = await ctx.events.facets(query, now);
    // The category counts beside Discover's category boxes (each leaves the category filter out): those asked for, or all.
    const rows = (args.categories ? args.categories.map((c) => ({ category: c, n: f.categories.find((x) => x.value === c)?.count ?? 0 })) : f.categories.map((c) => ({ category: c.value, n: c.count }))).filter(
      (r) => !args.categories || args.categories.length > 1 || r.n > 0,
    );
    const what = `${args.categories ? `${either(args.categories)} ` : ''}event`;
    const where = [places ? ` in ${either(places)}` : '', args.sourceTypes ? ` from ${either(args.sourceTypes)} sources` : ''].join('');
    const when = args.window === 'all' ? ' listed now' : ` ${WINDOW_SAID[args.window].label}`;
    const how =
      args.window === 'all'
        ? 'a recurring event counted once'
        : `as Discover's "${WINDOW_SAID[args.window].discover}" lists them: a recurring event counted once, events under way included, those already over left out`;
    const head = `${f.estimated ? 'About ' : ''}${f.total} ${what}${f.total === 1 ? '' : 's'}${where}${when} (${how})`;
    const text = f.total ? [`${head}:`, ...rows.map((r) => `- ${r.category}: ${r.n}`)].join('\n') : `No ${what}s${where}${when} (${how}).`;
    const filters = { ...(args.categories ? { categories: args.categories } : {}), ...(places ? { neighbourhoods: places } : {}), ...(args.sourceTypes ? { sourceTypes: args.sourceTypes } : {}) };
    return {
      text,
      result: {
        window: args.window,
        ...(query.startDate && query.endDate ? { from: query.startDate.toISOString(), to: query.endDate.toISOString() } : {}),
        filters,
        total: f.total,
        estimated: f.estimated,
        categories: rows,
      },
    };
  },
};

const PointsArgs = z
  .object({ email: z.email().max(200).optional(), name: z.string().trim().min(2).max(100).optional() })
  .refine((a) => a.email || a.name, { message: 'an email or a name is needed' });
const userPoints: CommandDef<typeof PointsArgs> = {
  type: 'user_points',
  changing: false,
  summary: "A user's points, by email or name",
  args: PointsArgs,
  describe: async () => "Reads a user's points.",
  async run(args, ctx) {
    const found = args.email ? await ctx.repo.usersByEmail(args.email) : await ctx.repo.usersByName(args.name!);
    const who = args.email ?? args.name!;
    const items = found.map((u) => ({ id: u.id, email: u.email, name: [u.firstName, u.lastName].filter(Boolean).join(' '), points: u.points }));
    const text = items.length
      ? items.map((u) => `${quote(u.name || u.email)} <${u.email}> has ${u.points} point${u.points === 1 ? '' : 's'}.`).join('\n')
      : `No user matches ${quote(who)}.`;
    return { text, result: { query: who, users: items } };
  },
};

const CacheArgs = z.object({ caches: z.array(z.enum(CACHES)).min(1).max(CACHES.length) });
const clearCache: CommandDef<typeof CacheArgs> = {
  type: 'clear_cache',
  changing: true,
  summary: `Clear named caches: ${CACHES.join(', ')}`,
  args: CacheArgs,
  async describe(args, ctx) {
    const lines = [...new Set(args.caches)].map((c) => `- Clear ${CACHE_DESCRIPTIONS[c]}.`);
    if (args.caches.includes('feeds')) lines.push(`  (${await ctx.repo.countFeedValidators()} sources hold validators now.)`);
    return ['This would:', ...lines].join('\n');
  },
  async run(args, ctx) {
    const done: Record<string, unknown> = {};
    for (const c of new Set(args.caches)) {
      if (c === 'events') {
        await ctx.repo.bumpEventsVersion();
        done.events = 'invalidated';
      } else {
        done.feeds = { sourcesCleared: await ctx.repo.clearFeedValidators() };
      }
    }
    const parts = Object.keys(done).map((k) => (k === 'events' ? 'the events aggregate cache is invalidated' : `feed validators cleared on ${(done.feeds as { sourcesCleared: number }).sourcesCleared} sources`));
    return { text: `Cache cleared: ${parts.join('; ')}.`, result: { cleared: done } };
  },
};

const ServicesArgs = z.object({ services: z.array(z.enum(SERVICES)).min(1).max(SERVICES.length).default([...SERVICES]) });
const restartServices: CommandDef<typeof ServicesArgs> = {
  type: 'restart_services',
  changing: true,
  summary: 'Restart the source scheduler and the image worker in this server process',
  args: ServicesArgs,
  async describe(args, ctx) {
    const lines = ['This would, in this server process:'];
    if (args.services.includes('scheduler')) lines.push(ctx.scheduler() ? '- Stop the source scheduler (waiting up to 10 s for a run in progress) and start it again; every enabled source gets its next run queued.' : '- Scheduler: nothing to restart (this instance runs without one).');
    if (args.services.includes('images')) lines.push(ctx.scheduler() ? '- Stop the image worker (waiting up to 5 s for a round) and start it again, with a first round soon.' : '- Image worker: nothing to restart (it runs only alongside the scheduler).');
    lines.push('- The flyer reader (OCR) is not restarted: its workers start on demand.');
    return lines.join('\n');
  },
  async run(args, ctx) {
    const done: Record<string, string> = {};
    const scheduler = ctx.scheduler();
    if (args.services.includes('scheduler')) {
      if (scheduler) {
        await scheduler.stop();
        await scheduler.start();
        done.scheduler = 'restarted';
      } else done.scheduler = 'not running in this instance';
    }
    if (args.services.includes('images')) {
      const images = ctx.images();
      if (images && scheduler) {
        await images.stop();
        images.start();
        done.images = 'restarted';
      } else done.images = 'not running in this instance';
    }
    return { text: `Services: ${Object.entries(done).map(([k, v]) => `${k} ${v}`).join('; ')}.`, result: { services: done } };
  },
};

const emergencyRepair: CommandDef<typeof NoArgs> = {
  type: 'emergency_repair',
  changing: true,
  summary: 'Emergency repair: re-check migrations, requeue stuck jobs, rebuild the search index',
  args: NoArgs,
  async describe(_args, ctx) {
    const stuck = await ctx.repo.countStuckImages(new Date(ctx.clock.now().getTime() - IMAGE_LEASE_MS));
    return [
      'This would:',
      '- Re-run the database migrator (it applies only migrations not yet applied).',
      `- Requeue stuck jobs: ${stuck} image fetch${stuck === 1 ? '' : 'es'} claimed over 10 minutes ago and never finished${ctx.scheduler() ? ', and a run for every enabled source overdue by more than twice its interval' : ''}.`,
      "- Rebuild the events' full-text search index.",
    ].join('\n');
  },
  async run(_args, ctx) {
    const before = await ctx.repo.appliedMigrations();
    await migrateAgain(ctx.database);
    const after = await ctx.repo.appliedMigrations();
    const now = ctx.clock.now();
    const images = await ctx.repo.requeueStuckImages(new Date(now.getTime() - IMAGE_LEASE_MS));
    if (images) ctx.images()?.kick();
    let sources = 0;
    const scheduler = ctx.scheduler();
    if (scheduler) {
      for (const s of await ctx.repo.listSources()) {
        const overdue = !s.lastRunAt || now.getTime() - s.lastRunAt.getTime() > 2 * s.intervalMinutes * 60_000;
        if (s.enabled && overdue) {
          await scheduler.ensure(s.id, 0);
          sources += 1;
        }
      }
    }
    await ctx.repo.reindexSearch();
    const searchable = await ctx.repo.countSearchable();
    const newly = before != null && after != null ? after - before : 0;
    const text = [
      `Migrations: ${newly ? `${newly} applied` : 'all already applied'}${after != null ? ` (${after} in total)` : ''}.`,
      `Requeued ${images} stuck image fetch${images === 1 ? '' : 'es'}${scheduler ? ` and ${sources} overdue source run${sources === 1 ? '' : 's'}` : ''}.`,
      `Search index rebuilt over ${searchable} events.`,
    ].join('\n');
    return { text, result: { migrations: { before, after }, requeued: { images, sources }, searchIndex: { events: searchable } } };
  },
};

const SourceArgs = z.object({ sourceId: Uuid });
const runSource: CommandDef<typeof SourceArgs> = {
  type: 'run_source',
  changing: true,
  summary: 'Run one source now (fetch, parse and store its events)',
  args: SourceArgs,
  target: (a) => `source:${a.sourceId}`,
  async describe(args, ctx) {
    const s = (await ctx.repo.listSources()).find((x) => x.id === args.sourceId);
    if (!s) throw new Error('That source no longer exists.');
    return `This would run the source ${quote(s.name)} now: fetch its feed, then add, update or merge its events and record the run.`;
  },
  async run(args, ctx) {
    const s = await ctx.ingestion.runSource(args.sourceId, 'manual');
    const text =
      s.status === 'error'
        ? `The run failed: ${quote(s.error ?? 'unknown error')}.`
        : `Run finished (${s.status}): ${s.fetched} fetched, ${s.created} created, ${s.updated} updated, ${s.merged} merged, ${s.rejected} rejected.`;
    return { text, result: { ...s } };
  },
};

function eventStatusCommand(type: 'approve_event' | 'reject_event', status: 'approved' | 'rejected'): CommandDef<typeof EventArgs> {
  const verb = type === 'approve_event' ? 'approve' : 'reject';
  return {
    type,
    changing: true,
    summary: `${verb === 'approve' ? 'Approve' : 'Reject'} an event (by id or title)`,
    args: EventArgs,
    target: (a) => `event:${a.eventId}`,
    async describe(args, ctx) {
      const e = await ctx.repo.findEvent(args.eventId);
      if (!e) throw new Error('That event no longer exists.');
      return `This would ${verb} the event ${quote(e.title)} (id ${e.id}, now ${e.status}): its status becomes ${status}${status === 'approved' ? ' and it is listed publicly' : ' and it leaves the review queue'}.`;
    },
    async run(args, ctx, actorId) {
      const e = await ctx.events.setStatus(args.eventId, status, actorId);
      return { text: `The event ${quote(e.title)} is now ${status}.`, result: { eventId: e.id, title: e.title, status } };
    },
  };
}
const EventArgs = z.object({ eventId: Uuid });

/** The allow-list, by command type. */
export const COMMANDS: { [K in CommandType]: CommandDef } = {
  health_check: healthCheck,
  database_status: databaseStatus,
  error_logs: errorLogs as CommandDef,
  source_status: sourceStatus as CommandDef,
  pending_review: pendingReview as CommandDef,
  events_by_category: eventsByCategory as CommandDef,
  user_points: userPoints as CommandDef,
  clear_cache: clearCache as CommandDef,
  restart_services: restartServices as CommandDef,
  emergency_repair: emergencyRepair,
  run_source: runSource as CommandDef,
  approve_event: eventStatusCommand('approve_event', 'approved') as CommandDef,
  reject_event: eventStatusCommand('reject_event', 'rejected') as CommandDef,
};
