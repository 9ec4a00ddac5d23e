DROP INDEX "events_popularity_idx";--> statement-breakpoint
CREATE INDEX "events_upcoming_category_idx" ON "events" USING btree ("status","category","end_date","source_type","start_date") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_upcoming_source_idx" ON "events" USING btree ("status","source_type","end_date","category","start_date") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_popularity_idx" ON "events" USING btree ("status",("favorite_count" + "attendee_count") desc,"start_date","id");