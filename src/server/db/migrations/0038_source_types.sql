-- An event is listed under every source that lists it: ingestion keeps another source's record of
-- the same event as its own row (status 'merged', merged_into = the listed event), and Discover's
-- source filter and facets read the listed row's source_type alone, so an event an rss feed and a
-- meetup group both list was missing under "meetup" when its own record was the rss one.
-- other_source_types holds the types of the records merged into an event (not gone), distinct and
-- sorted, without the event's own; null for none, as for nearly every event, so rows and index
-- entries (which already have a null bitmap for series_prev_end) hardly grow. The filter is
-- "source_type in (...) or other_source_types && (...)": the source_type arm keeps what it used.
ALTER TABLE "events" ADD COLUMN "other_source_types" text[];--> statement-breakpoint
-- Recomputed from the merged records, writing only the events whose types change. The events are
-- locked first (in id order): two writers merging records into one event then read each other's
-- record, the second once the first has committed, instead of each writing its own half. The
-- records are found by merged_into alone (events_merged_into_idx), their status tested in the
-- aggregate's filter: on statistics that have seen no merged record yet (a fresh database's first
-- merges), the planner took status = 'merged' for one row and walked events_status_end_idx through
-- every merged record for each event (5,000 merges into 100,000 events: 38 s).
CREATE OR REPLACE FUNCTION "refresh_other_source_types"(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM 1 FROM unnest(ids) AS x("id") JOIN "events" e ON e."id" = x."id" ORDER BY e."id" FOR NO KEY UPDATE OF e;
  UPDATE "events" e SET "other_source_types" = s.types
  FROM (
    SELECT t."id", (
      SELECT array_agg(DISTINCT m."source_type" ORDER BY m."source_type")
        FILTER (WHERE m."status" = 'merged' AND m."gone_at" IS NULL AND m."source_type" <> t."source_type")
      FROM "events" m WHERE m."merged_into" = t."id"
    ) AS types
    -- OFFSET 0: each event's types computed once, not again in the join's test below.
    FROM unnest(ids) AS x("id") JOIN "events" t ON t."id" = x."id" OFFSET 0
  ) s
  WHERE e."id" = s."id" AND e."other_source_types" IS DISTINCT FROM s.types;
END $$;--> statement-breakpoint
-- Per statement, as the series trigger (0014) is, sharing the rows it already captures: marking a
-- thousand merged records gone recomputes their events in one UPDATE. Only a write that changes a
-- merged record (its status, target, type or gone mark) or the type of an event with merged
-- records touches anything; the refresh's own UPDATE changes none of these, so it stops there.
CREATE OR REPLACE FUNCTION "events_other_source_types_write"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT "merged_into") INTO ids FROM new_rows WHERE "merged_into" IS NOT NULL AND "status" = 'merged';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT "merged_into") INTO ids FROM old_rows WHERE "merged_into" IS NOT NULL AND "status" = 'merged';
  ELSE
    SELECT array_agg(DISTINCT k) INTO ids FROM (
      SELECT unnest(ARRAY[o."merged_into", n."merged_into", CASE WHEN n."source_type" IS DISTINCT FROM o."source_type" OR n."other_source_types" IS NOT NULL THEN n."id" END]) AS k
      FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE (o."merged_into" IS NOT NULL OR n."merged_into" IS NOT NULL OR n."source_type" IS DISTINCT FROM o."source_type" OR n."other_source_types" IS NOT NULL)
        AND (n."status", n."merged_into", n."source_type", n."gone_at") IS DISTINCT FROM (o."status", o."merged_into", o."source_type", o."gone_at")
    ) changed WHERE k IS NOT NULL;
  END IF;
  PERFORM "refresh_other_source_types"(ids);
  RETURN NULL;
END $$;--> statement-breakpoint
-- The listing indexes that carry source_type, so that counts, facets and pages test the source
-- filter from their entries without reading rows, carry other_source_types too: dropped here,
-- before the backfill writes its rows, and built again at the end with the same definitions
-- otherwise (as 0015, 0017, 0019, 0020 and 0035 left them).
DROP INDEX "events_upcoming_category_idx";--> statement-breakpoint
DROP INDEX "events_upcoming_source_idx";--> statement-breakpoint
DROP INDEX "events_upcoming_geo_idx";--> statement-breakpoint
DROP INDEX "events_upcoming_category_geo_idx";--> statement-breakpoint
DROP INDEX "events_cards_words_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "events_cards_start_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "events_cards_popularity_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "events_cards_earth_idx";--> statement-breakpoint
-- Backfill: only the events that have merged records change.
SELECT "refresh_other_source_types"(ARRAY(SELECT DISTINCT "merged_into" FROM "events" WHERE "merged_into" IS NOT NULL AND "status" = 'merged' AND "gone_at" IS NULL));--> statement-breakpoint
CREATE TRIGGER "events_other_source_types_insert" AFTER INSERT ON "events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "events_other_source_types_write"();--> statement-breakpoint
CREATE TRIGGER "events_other_source_types_update" AFTER UPDATE ON "events" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "events_other_source_types_write"();--> statement-breakpoint
CREATE TRIGGER "events_other_source_types_delete" AFTER DELETE ON "events" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "events_other_source_types_write"();--> statement-breakpoint
-- A change of an event's types changes its lists, counts and facets: the version moves (0007).
DROP TRIGGER IF EXISTS "events_version_update" ON "events";--> statement-breakpoint
CREATE TRIGGER "events_version_update" AFTER UPDATE OF "status", "start_date", "end_date", "gone_at", "category", "source_type", "other_source_types", "title", "description", "venue_name", "neighbourhood", "lat", "lng" ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "bump_events_version"();--> statement-breakpoint
CREATE INDEX "events_upcoming_category_idx" ON "events" USING btree ("status","category","end_date","source_type","start_date","series_prev_end","other_source_types") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_upcoming_source_idx" ON "events" USING btree ("status","source_type","end_date","category","start_date","series_prev_end","other_source_types") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_upcoming_geo_idx" ON "events" USING btree ("status","lat","lng","end_date","category","source_type","series_prev_end","other_source_types") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_upcoming_category_geo_idx" ON "events" USING btree ("status","category","lat","lng","end_date","source_type","series_prev_end","other_source_types") WHERE "events"."gone_at" is null;--> statement-breakpoint
-- The words index holds an event's types as one array (its own and its merged records'): a search
-- within a source finds the matches of that source in the index, as it did from source_type,
-- instead of reading every match's row to test the source (which the two columns' "or" cannot
-- put into one index scan). A search's filter tests this very expression.
CREATE INDEX "events_cards_words_idx" ON "events" USING gin ("category",(array["source_type"] || "other_source_types"),"search",lower("title") gin_trgm_ops) WHERE "events"."status" = 'approved' and "events"."gone_at" is null;--> statement-breakpoint
-- Statistics of that expression (ANALYZE keeps them): without them the planner took the types'
-- test for 0.5% of a word's matches (95 where 4,914 were, "music" within meetup over 100,000
-- events) and read and sorted every match (16 ms) instead of walking the cards by date (2 ms).
CREATE STATISTICS IF NOT EXISTS "events_source_types_stats" ON ((array["source_type"] || "other_source_types")) FROM "events";--> statement-breakpoint
CREATE INDEX "events_cards_start_idx" ON "events" ("start_date", "id") INCLUDE ("end_date", "series_prev_end", "category", "source_type", "other_source_types") WHERE "status" = 'approved' AND "gone_at" IS NULL;--> statement-breakpoint
CREATE INDEX "events_cards_popularity_idx" ON "events" (("attendee_count" + "people_count") DESC, "start_date", "id") INCLUDE ("end_date", "series_prev_end", "category", "source_type", "other_source_types", "attendee_count", "people_count") WHERE "status" = 'approved' AND "gone_at" IS NULL;--> statement-breakpoint
CREATE INDEX "events_cards_earth_idx" ON "events" USING gist (ll_to_earth("lat", "lng")) INCLUDE ("lat", "lng", "end_date", "series_prev_end", "category", "source_type", "other_source_types", "start_date", "id") WHERE "status" = 'approved' AND "gone_at" IS NULL;
