import { performance } from 'node:perf_hooks';
import { desc, eq, sql } from 'drizzle-orm';
import type { HealthChecks, HealthResponse } from '../../../contract/health.ts';
import type { Clock } from '../../clock.ts';
import { queryRows, type Db } from '../../db/client.ts';
import { sourceRuns, sources } from '../ingestion/sources.table.ts';
import { users } from '../users/users.table.ts';

/** A database round trip slower than this makes the server 'degraded'. */
export const SLOW_DB_MS = 500;
/** A round trip that has not answered by then counts as failed. */
const DB_TIMEOUT_MS = 5_000;

/** What the health report needs to know about the source scheduler (null: none on this instance). */
export interface SchedulerProbe {
  state(): 'idle' | 'running' | 'stopped';
}

/** The latest run across all sources, for the system status. */
export interface LastRun {
  finishedAt: Date;
  status: 'success' | 'not_modified' | 'error';
  sourceName: string;
}

/**
 * Live figures and checks for /api/health and /api/admin/system-status: a timed `select 1`, the
 * scheduler's state and the last run of every enabled source. Any failing check makes the
 * status 'degraded'.
 */
/** The listed-event figures every screen shows (the events service's stats): one rule for "Total events". */
export type EventCounts = (now: Date) => Promise<{ totalEvents: number; todayEvents: number }>;

export function createHealthService(deps: { db: Db; clock: Clock; startedAt: Date; scheduler: () => SchedulerProbe | null; eventCounts: EventCounts; slowDbMs?: number }) {
  const { db, clock } = deps;
  const slowMs = deps.slowDbMs ?? SLOW_DB_MS;

  async function pingDatabase(): Promise<HealthChecks['database']> {
    const start = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.execute(sql`select 1`),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), DB_TIMEOUT_MS);
        }),
      ]);
      const ms = Math.round((performance.now() - start) * 10) / 10;
      return { status: ms > slowMs ? 'slow' : 'ok', responseTime: ms };
    } catch {
      return { status: 'down', responseTime: null };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The last run of each enabled source: how many there are, how many failed, how many left entries
   * of the feed out, how many kept listed events they did not meet.
   */
  async function sourceRunsCheck(): Promise<HealthChecks['sources']> {
    // Each source's newest run through the (source, start) index: DISTINCT ON read every run ever
    // made, 580 ms at a year of ten-minute runs of 11 sources (bench/health.bench.ts), every 5 s
    // while an admin has the Overview open.
    const rows = (
      await queryRows<{ status: string; last_run_skipped: number; last_run_held: number }>(
        db,
        sql`select r.status, s.last_run_skipped, s.last_run_held from ${sources} s
            cross join lateral (select status from ${sourceRuns} r where r.source_id = s.id order by r.started_at desc limit 1) r
            where s.enabled`,
      )
    ).map((r) => ({ status: r.status, lastRunSkipped: r.last_run_skipped, lastRunHeld: r.last_run_held }));
    const failing = rows.filter((r) => r.status === 'error').length;
    // What the last run that read the feed left out: a 'not modified' run since keeps it true.
    const leftOut = rows.filter((r) => r.status !== 'error' && r.lastRunSkipped > 0).length;
    const held = rows.filter((r) => r.status !== 'error' && r.lastRunHeld > 0).length;
    // "Most" = more than half of the enabled sources that have run at all.
    return { status: rows.length > 0 && failing * 2 > rows.length ? 'failing' : 'ok', failing, leftOut, held, total: rows.length };
  }

  function schedulerCheck(): HealthChecks['scheduler'] {
    const s = deps.scheduler();
    if (!s) return { status: 'off' };
    const state = s.state();
    return { status: state === 'stopped' ? 'stopped' : state === 'running' ? 'running' : 'starting' };
  }

  async function checks(): Promise<HealthChecks> {
    const database = await pingDatabase();
    const sourcesCheck = database.status === 'down' ? { status: 'ok' as const, failing: 0, leftOut: 0, held: 0, total: 0 } : await sourceRunsCheck();
    return { database, scheduler: schedulerCheck(), sources: sourcesCheck };
  }

  const isDegraded = (c: HealthChecks) => c.database.status !== 'ok' || c.scheduler.status === 'stopped' || c.sources.status === 'failing';

  return {
    checks,
    isDegraded,
    /** The latest finished source run, or null before the first. */
    async lastRun(): Promise<LastRun | null> {
      const [row] = await db
        .select({ finishedAt: sourceRuns.finishedAt, status: sourceRuns.status, sourceName: sources.name })
        .from(sourceRuns)
        .innerJoin(sources, eq(sources.id, sourceRuns.sourceId))
        .orderBy(desc(sourceRuns.finishedAt))
        .limit(1);
      return row ?? null;
    },

    async report(): Promise<HealthResponse> {
      const now = clock.now();
      const c = await checks();
      const uptime = Math.max(0, now.getTime() - deps.startedAt.getTime());
      if (c.database.status === 'down') {
        return { status: 'degraded', health: { metrics: { system: { uptime }, storage: { totalEvents: 0, todayEvents: 0, totalUsers: 0 } } }, checks: c };
      }
      // The same figures as Discover and the admin dashboard: listed events, not every one ever approved.
      const counts = await deps.eventCounts(now);
      const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      return {
        status: isDegraded(c) ? 'degraded' : 'operational',
        health: {
          metrics: {
            system: { uptime },
            storage: {
              totalEvents: counts.totalEvents,
              todayEvents: counts.todayEvents,
              totalUsers: u?.n ?? 0,
            },
          },
        },
        checks: c,
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
