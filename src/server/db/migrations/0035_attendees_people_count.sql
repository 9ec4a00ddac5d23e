-- Attendees counted one person twice: the source's RSVPs + check-ins + saves, so a member who saved
-- an event and then checked in there was two, and AR Discovery showed only the source's count.
-- people_count keeps the members who saved or checked in, each once; attendees everywhere (cards,
-- event page, API, AR, recommendations, the popularity sort) are attendee_count + people_count.
ALTER TABLE "events" ADD COLUMN "people_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Who checked in at an event, read when a save or a recount asks whether a member is already counted.
CREATE INDEX "point_awards_checkins_idx" ON "point_awards" USING btree ("event_id","user_id") WHERE "point_awards"."activity_type" = 'check_in';--> statement-breakpoint
-- Backfill: only the events someone saved or checked in at change.
UPDATE "events" e SET "people_count" = p.n
FROM (
  SELECT event_id, count(*)::int AS n FROM (
    SELECT user_id, event_id FROM "favorites"
    UNION
    SELECT user_id, event_id FROM "point_awards" WHERE activity_type = 'check_in' AND event_id IS NOT NULL
  ) u GROUP BY event_id
) p
WHERE e.id = p.event_id;--> statement-breakpoint
-- The popularity sort orders by attendees as shown: the same index over the new sum.
DROP INDEX IF EXISTS "events_cards_popularity_idx";--> statement-breakpoint
CREATE INDEX "events_cards_popularity_idx" ON "events" (("attendee_count" + "people_count") DESC, "start_date", "id") INCLUDE ("end_date", "series_prev_end", "category", "source_type", "attendee_count", "people_count") WHERE "status" = 'approved' AND "gone_at" IS NULL;
