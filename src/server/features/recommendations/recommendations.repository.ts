import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, favorites } from '../events/events.table.ts';
import { pointAwards } from '../gaming/ledger.table.ts';
import { flyerScans } from '../scan/scan.table.ts';
import type { RankEvent, SignalKind } from './ranking.ts';
import { eventDismissals, eventViews, userInterests, userRecommendations } from './recommendations.table.ts';

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: Db, q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as Rows<T>).rows;
const ms = (v: Date | string | number) => new Date(v).getTime();

/** The ranking's features of an event, as columns. */
const rankColumns = sql`e.id, e.title, e.category, e.venue_name, e.neighbourhood, e.lat, e.lng, e.start_date, e.end_date, e.series_key,
  (e.attendee_count + e.people_count) as popularity`;
type RankRow = { id: string; title: string; category: string; venue_name: string; neighbourhood: string | null; lat: number | null; lng: number | null; start_date: string | Date; end_date: string | Date; series_key: string | null; popularity: number };
const toRankEvent = (r: RankRow): RankEvent => ({
  id: r.id,
  title: r.title,
  category: r.category,
  venue: r.venue_name,
  neighbourhood: r.neighbourhood,
  lat: r.lat === null ? null : Number(r.lat),
  lng: r.lng === null ? null : Number(r.lng),
  start: ms(r.start_date),
  end: ms(r.end_date),
  seriesKey: r.series_key ?? r.id,
  popularity: Number(r.popularity),
});

/** The check-ins of the points ledger: `check_in` entries name the event. */
const checkIns = sql`select ${pointAwards.userId} as user_id, ${pointAwards.eventId} as event_id, ${pointAwards.createdAt} as at from ${pointAwards} where ${pointAwards.activityType} = 'check_in' and ${pointAwards.eventId} is not null`;

/** Queries for the recommender; no rules here. */
export function createRecommendationsRepository(db: Db) {
  return {
    /** What the user did with events (newest first, at most `limit`), each with the event's features. */
    async signals(userId: string, limit: number): Promise<{ kind: SignalKind; at: number; event: RankEvent }[]> {
      const rows = await rowsOf<RankRow & { kind: SignalKind; at: string | Date }>(
        db,
        sql`select s.kind, s.at, ${rankColumns} from (
          (select 'favorite' as kind, event_id, created_at as at from ${favorites} where user_id = ${userId} order by created_at desc limit ${limit})
          union all (select 'checkin', event_id, created_at from ${pointAwards} where user_id = ${userId} and activity_type = 'check_in' and event_id is not null order by created_at desc limit ${limit})
          union all (select 'scan', event_id, created_at from ${flyerScans} where user_id = ${userId} order by created_at desc limit ${limit})
          union all (select case when via = 'recommendation' then 'click' else 'view' end, event_id, created_at from ${eventViews} where user_id = ${userId} order by created_at desc limit ${limit})
        ) s join ${events} e on e.id = s.event_id order by s.at desc limit ${limit}`,
      );
      return rows.map((r) => ({ kind: r.kind, at: ms(r.at), event: toRankEvent(r) }));
    },

    /**
     * Never recommended: saved, checked into, dismissed. With the newest moment the user did
     * anything the ranking reads (stale precomputed items are refreshed after it).
     */
    async exclusionsAndLatest(userId: string): Promise<{ exclude: Set<string>; latest: number }> {
      const rows = await rowsOf<{ event_id: string | null; at: string | Date | null }>(
        db,
        sql`select event_id, created_at as at from ${favorites} where user_id = ${userId}
          union all select event_id, created_at from ${pointAwards} where user_id = ${userId} and activity_type = 'check_in' and event_id is not null
          union all select event_id, created_at from ${eventDismissals} where user_id = ${userId}
          union all select null, (select max(created_at) from ${eventViews} where user_id = ${userId})
          union all select null, (select max(created_at) from ${flyerScans} where user_id = ${userId})
          union all select null, (select updated_at from ${userInterests} where user_id = ${userId})`,
      );
      const exclude = new Set<string>();
      let latest = 0;
      for (const r of rows) {
        if (r.event_id) exclude.add(r.event_id);
        if (r.at) latest = Math.max(latest, ms(r.at));
      }
      return { exclude, latest };
    },

    /**
     * The read path in one round trip: the stored list, which of its events the user has since
     * saved, checked into or dismissed, or acted on (saved, checked into, scanned, looked at)
     * another date of, and the newest moment of any activity.
     */
    async storedForRead(userId: string): Promise<{ items: { eventId: string; score: number; reason: string }[]; computedAt: number; excluded: Set<string>; latest: number } | null> {
      const rows = await rowsOf<{ items: { eventId: string; score: number; reason: string }[]; computed_at: string | Date; excluded: string[] | null; latest: string | Date | null }>(
        db,
        sql`with c as (select items, computed_at from ${userRecommendations} where user_id = ${userId}),
          ids as (select (i->>'eventId')::uuid as id from c, jsonb_array_elements(c.items) i)
        select c.items, c.computed_at,
          array(select event_id::text from ${eventDismissals} where user_id = ${userId} and event_id in (select id from ids)
            union select e.id::text from ${events} e where e.id in (select id from ids) and e.series_key in (
              select a.series_key from ${events} a where a.id in (
                select event_id from ${favorites} where user_id = ${userId}
                union select event_id from ${pointAwards} where user_id = ${userId} and activity_type = 'check_in' and event_id is not null
                union select event_id from ${flyerScans} where user_id = ${userId}
                union select event_id from ${eventViews} where user_id = ${userId}))) as excluded,
          greatest((select max(created_at) from ${favorites} where user_id = ${userId}),
            (select max(created_at) from ${pointAwards} where user_id = ${userId} and activity_type = 'check_in'),
            (select max(created_at) from ${eventDismissals} where user_id = ${userId}),
            (select max(created_at) from ${eventViews} where user_id = ${userId}),
            (select max(created_at) from ${flyerScans} where user_id = ${userId}),
            (select updated_at from ${userInterests} where user_id = ${userId})) as latest
        from c`,
      );
      const r = rows[0];
      if (!r) return null;
      return { items: r.items, computedAt: ms(r.computed_at), excluded: new Set(r.excluded ?? []), latest: r.latest ? ms(r.latest) : 0 };
    },

    async interests(userId: string): Promise<{ categories: string[]; neighbourhoods: string[] } | null> {
      const [row] = await db.select({ categories: userInterests.categories, neighbourhoods: userInterests.neighbourhoods }).from(userInterests).where(eq(userInterests.userId, userId));
      return row ?? null;
    },

    /** Every approved event that has not ended, with the ranking's features. */
    async upcoming(now: Date): Promise<RankEvent[]> {
      const rows = await rowsOf<RankRow>(db, sql`select ${rankColumns} from ${events} e where e.status = 'approved' and e.gone_at is null and e.end_date > ${now.toISOString()}::timestamptz`);
      return rows.map(toRankEvent);
    },

    /** Saves and check-ins since `since`, per user in time order (for item-to-item similarity). */
    async keptByUser(since: Date): Promise<Map<string, string[]>> {
      const rows = await rowsOf<{ user_id: string; event_id: string }>(
        db,
        sql`select user_id, event_id from (
          select user_id, event_id, created_at as at from ${favorites} where created_at >= ${since.toISOString()}::timestamptz
          union all select user_id, event_id, at from (${checkIns}) c where at >= ${since.toISOString()}::timestamptz
        ) k order by user_id, at`,
      );
      const out = new Map<string, string[]>();
      for (const r of rows) {
        let list = out.get(r.user_id);
        if (!list) out.set(r.user_id, (list = []));
        list.push(r.event_id);
      }
      return out;
    },

    async cached(userId: string) {
      const [row] = await db.select().from(userRecommendations).where(eq(userRecommendations.userId, userId));
      return row ?? null;
    },

    async store(userId: string, items: { eventId: string; score: number; reason: string }[], at: Date) {
      await db
        .insert(userRecommendations)
        .values({ userId, items, computedAt: at })
        .onConflictDoUpdate({ target: userRecommendations.userId, set: { items, computedAt: at } });
    },
  };
}

export type RecommendationsRepository = ReturnType<typeof createRecommendationsRepository>;
