import type { AdminUserPatch, AnalyticsDay, AnalyticsResponse, SystemStatus } from '../../../contract/admin.ts';
import { wallClock, zonedDayBounds, zonedToUtc } from '../../../contract/time.ts';
import type { Clock } from '../../clock.ts';
import { conflict, notFound } from '../../errors.ts';
import type { HealthService } from '../health/health.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { AdminRepository } from './admin.repository.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
};

/** The admin area's rules: user role and account changes, the analytics series, the system status. */
export function createAdminService(deps: {
  repo: AdminRepository;
  clock: Clock;
  timeZone: string;
  health: HealthService;
  /** Which database serves: the embedded one (its backups are downloaded here) or a PostgreSQL server. */
  databaseKind: 'pglite' | 'postgres';
  /** Measured at request time: registered /api routes, live sockets, the model in use. */
  live: { endpoints: () => number; connections: () => number; aiModel: () => string | null; aiFailing: () => boolean };
}) {
  const { repo, clock, timeZone } = deps;

  return {
    listUsers: repo.listUsers,
    listActivities: repo.listActivities,

    /**
     * Role change and/or disabling. The last enabled admin cannot be demoted or disabled, and an
     * admin cannot disable their own account; disabling ends every session of the user.
     */
    async updateUser(actor: UserRow, id: string, patch: AdminUserPatch): Promise<UserRow> {
      if (patch.disabled === true && id === actor.id) throw conflict('You cannot disable your own account');
      const now = clock.now();
      const updated = await repo.updateUser(id, { role: patch.role, disabledAt: patch.disabled === undefined ? undefined : patch.disabled ? now : null }, now, (admins, target) => {
        const losesAdmin = target.role === 'admin' && target.disabledAt === null && ((patch.role !== undefined && patch.role !== 'admin') || patch.disabled === true);
        if (losesAdmin && admins.filter((a) => a.id !== target.id).length === 0) throw conflict('The last admin cannot be demoted or disabled');
      });
      if (!updated) throw notFound('User not found');
      return updated;
    },

    /** Overview figures: approved events, distinct active users over the last 7 days, and what waits for an admin's decision. */
    async overview() {
      const now = clock.now();
      const [totalEvents, activeUsers7d, pendingEvents, openDuplicates] = await Promise.all([
        repo.countApprovedEvents(),
        repo.countActiveUsersSince(new Date(now.getTime() - 7 * 24 * 3600 * 1000)),
        repo.countPendingEvents(now),
        repo.countOpenDuplicates(),
      ]);
      return { totalEvents, activeUsers7d, pendingEvents, openDuplicates };
    },

    /** Daily series over the last `days` days (today included) in the city's time zone. */
    async analytics(days: number): Promise<AnalyticsResponse> {
      const now = clock.now();
      const today = wallClock(now, timeZone);
      const first = new Date(Date.UTC(today.year, today.month - 1, today.day - (days - 1)));
      const from = zonedToUtc({ year: first.getUTCFullYear(), month: first.getUTCMonth() + 1, day: first.getUTCDate() }, timeZone);
      const to = zonedDayBounds(now, timeZone).end;
      const data = await repo.analytics(from, to, timeZone);
      const sourceTypes = [...new Set(data.ingested.map((r) => r.sourceType))].sort();
      const series: AnalyticsDay[] = [];
      for (let i = 0; i < days; i += 1) {
        const date = isoDay(first.getUTCFullYear(), first.getUTCMonth() + 1, first.getUTCDate() + i);
        const bySource = Object.fromEntries(sourceTypes.map((s) => [s, 0]));
        for (const r of data.ingested) if (r.day === date) bySource[r.sourceType] = r.n;
        series.push({
          date,
          signups: data.signups.get(date) ?? 0,
          activeUsers: data.active.get(date) ?? 0,
          eventsIngested: Object.values(bySource).reduce((a, b) => a + b, 0),
          eventsBySource: bySource,
          approvals: data.approvals.get(date) ?? 0,
          rejections: data.rejections.get(date) ?? 0,
          favorites: data.favorites.get(date) ?? 0,
          scans: (data.flyerScans.get(date) ?? 0) + (data.qrScans.get(date) ?? 0),
          pointsPaid: data.points.get(date) ?? 0,
        });
      }
      return { days, timeZone, from: series[0]!.date, to: series.at(-1)!.date, sourceTypes, series };
    },

    /** GET /api/admin/system-status (spec section 3), each figure measured now. */
    async systemStatus(): Promise<SystemStatus> {
      const checks = await deps.health.checks();
      const last = checks.database.status === 'down' ? null : await deps.health.lastRun();
      const connections = deps.live.connections();
      const model = deps.live.aiModel();
      const scraping =
        checks.scheduler.status === 'stopped' ? 'stopped' : checks.sources.status === 'failing' ? 'failing' : checks.scheduler.status === 'off' ? 'off' : 'running';
      return {
        database: {
          status: checks.database.status === 'ok' ? 'connected' : checks.database.status,
          responseTime: checks.database.responseTime,
          kind: deps.databaseKind === 'pglite' ? 'embedded' : 'postgres',
        },
        api: { status: deps.health.isDegraded(checks) ? 'degraded' : 'operational', endpoints: deps.live.endpoints() },
        websocket: { status: connections > 0 ? 'active' : 'idle', connections },
        scraping: {
          status: scraping,
          lastRun: last?.finishedAt.toISOString() ?? null,
          lastResult: last?.status ?? null,
          lastSource: last?.sourceName ?? null,
          sources: checks.sources.total,
          failing: checks.sources.failing,
          leftOut: checks.sources.leftOut,
          held: checks.sources.held,
        },
        ai: { status: deps.live.aiFailing() ? 'degraded' : 'operational', model: model ?? 'Built-in engines (offline)' },
      };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
