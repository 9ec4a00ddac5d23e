-- The search box says 'Search events, venues, or categories': an event's category and its
-- neighbourhood (on every card) are now among its words, weighted as its venue. Dropping the
-- generated column drops the indexes on it (events_search_idx, events_cards_words_idx of 0020),
-- made again here.
ALTER TABLE "events" drop column "search";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(venue_name, '') || ' ' || coalesce(neighbourhood, '')), 'B') || setweight(to_tsvector('english', coalesce(category, '')), 'B') || setweight(to_tsvector('english', coalesce(description, '')), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "events_search_idx" ON "events" USING gin ("search");
--> statement-breakpoint
CREATE INDEX "events_cards_words_idx" ON "events" USING gin ("category","source_type","search",lower("title") gin_trgm_ops) WHERE "events"."status" = 'approved' and "events"."gone_at" is null;
