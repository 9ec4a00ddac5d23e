-- The listed cards (approved, not gone) in the two orders lists walk, carrying what their filters
-- test (end, series_prev_end, category, source; the title and words for a search), so a page, a
-- deep offset or a count is found from the index alone without reading the rows (issue 18).
-- Over 100,000 events: popularity at offset 2,280 in one category 44 -> 5 ms, the whole-listing
-- count 79 -> 12 ms (EXPLAIN ANALYZE).
CREATE INDEX "events_cards_start_idx" ON "events" ("start_date", "id") INCLUDE ("end_date", "series_prev_end", "category", "source_type") WHERE "status" = 'approved' AND "gone_at" IS NULL;--> statement-breakpoint
CREATE INDEX "events_cards_popularity_idx" ON "events" (("favorite_count" + "attendee_count" + "checkin_count") DESC, "start_date", "id") INCLUDE ("end_date", "series_prev_end", "category", "source_type", "favorite_count", "attendee_count", "checkin_count") WHERE "status" = 'approved' AND "gone_at" IS NULL;--> statement-breakpoint
CREATE INDEX "events_cards_search_start_idx" ON "events" ("start_date", "id") INCLUDE ("end_date", "series_prev_end", "category", "source_type", "title", "search") WHERE "status" = 'approved' AND "gone_at" IS NULL;--> statement-breakpoint
-- Nearest first among the listed cards, carrying what a radius and the filters test: the edge of
-- a distance page at offset 432 in one category 14 -> 3.5 ms, read from the index alone.
CREATE INDEX "events_cards_earth_idx" ON "events" USING gist (ll_to_earth("lat", "lng")) INCLUDE ("lat", "lng", "end_date", "series_prev_end", "category", "source_type") WHERE "status" = 'approved' AND "gone_at" IS NULL;--> statement-breakpoint
-- Superseded by events_cards_popularity_idx for every list people see.
DROP INDEX IF EXISTS "events_popularity_idx";
