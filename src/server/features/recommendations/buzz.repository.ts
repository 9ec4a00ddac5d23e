import { sql } from 'drizzle-orm';
import type { BuzzItem } from '../../../contract/recommendations.ts';
import { queryRows, type Db } from '../../db/client.ts';

export interface BuzzRow {
  id: string;
  action: BuzzItem['action'];
  firstName: string | null;
  lastName: string | null;
  subject: string;
  eventId: string | null;
  storyId: string | null;
  at: string;
  /** Times the person did it on this subject. */
  count: number;
}

/**
 * The latest public actions of other people, newest first: saves and QR check-ins of approved
 * events, stories members shared (not hidden), flyer scans of approved events. A person's repeats
 * of one action on one event (a flyer scanned again) are one item, at the latest, with a count.
 * Each source is cut to `limit` before the merge, after its own filters, so the merge stays small.
 */
export function createBuzzRepository(db: Db) {
  return {
    async latest(viewerId: string, limit: number): Promise<BuzzRow[]> {
      const person = sql`u.id <> ${viewerId} and not u.buzz_opt_out and u.disabled_at is null`;
      return queryRows<BuzzRow>(
        db,
        sql`
        select a.id, a.action, a.first_name as "firstName", a.last_name as "lastName", a.subject, a.event_id as "eventId", a.story_id as "storyId",
               to_char(a.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, a.n as count
        from (
          (select 'saved:' || f.user_id || ':' || f.event_id as id, 'saved' as action, u.first_name, u.last_name, e.title as subject,
                  e.id::text as event_id, null::text as story_id, f.created_at as at, 1 as n
           from favorites f join events e on e.id = f.event_id join users u on u.id = f.user_id
           where e.status = 'approved' and ${person} order by f.created_at desc limit ${limit})
          union all
          (select 'checked_in:' || p.user_id || ':' || p.event_id, 'checked_in', u.first_name, u.last_name, e.title, e.id::text, null::text, p.at, p.n
           from (select user_id, event_id, max(created_at) as at, count(*)::int as n from point_awards where activity_type = 'check_in' group by user_id, event_id) p
             join events e on e.id = p.event_id join users u on u.id = p.user_id
           where e.status = 'approved' and ${person} order by p.at desc limit ${limit})
          union all
          (select 'shared_story:' || s.id, 'shared_story', u.first_name, u.last_name, s.title, null::text, s.id::text, s.created_at, 1
           from stories s join users u on u.id = s.user_id
           where not s.ai_generated and s.hidden_at is null and ${person} order by s.created_at desc limit ${limit})
          union all
          (select 'scanned_flyer:' || fs.user_id || ':' || fs.event_id, 'scanned_flyer', u.first_name, u.last_name, e.title, e.id::text, null::text, fs.at, fs.n
           from (select user_id, event_id, max(created_at) as at, count(*)::int as n from flyer_scans group by user_id, event_id) fs
             join events e on e.id = fs.event_id join users u on u.id = fs.user_id
           where e.status = 'approved' and ${person} order by fs.at desc limit ${limit})
        ) a
        order by a.at desc, a.id
        limit ${limit}`,
      );
    },
  };
}
