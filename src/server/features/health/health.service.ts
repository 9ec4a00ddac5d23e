import { and, gte, lt, sql } from 'drizzle-orm';
import { zonedDayBounds } from '../../../contract/time.ts';
import type { HealthResponse } from '../../../contract/health.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../events/events.table.ts';
import { users } from '../users/users.table.ts';

/** Live figures for /api/health: process uptime and what the database holds. */
export function createHealthService(deps: { db: Db; clock: Clock; timeZone: string; startedAt: Date }) {
  const { db, clock } = deps;
  return {
    async report(): Promise<HealthResponse> {
      const now = clock.now();
      const { start, end } = zonedDayBounds(now, deps.timeZone);
      const [counts] = await db
        .select({
          totalEvents: sql<number>`count(*)::int`,
          todayEvents: sql<number>`(count(*) filter (where ${and(gte(events.startDate, start), lt(events.startDate, end))}))::int`,
        })
        .from(events)
        .where(sql`${events.status} = 'approved'`);
      const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      return {
        status: 'operational',
        health: {
          metrics: {
            system: { uptime: Math.max(0, now.getTime() - deps.startedAt.getTime()) },
            storage: {
              totalEvents: counts?.totalEvents ?? 0,
              todayEvents: counts?.todayEvents ?? 0,
              totalUsers: u?.n ?? 0,
            },
          },
        },
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
