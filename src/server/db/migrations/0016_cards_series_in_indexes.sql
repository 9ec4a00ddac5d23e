DROP INDEX "events_upcoming_category_idx";--> statement-breakpoint
DROP INDEX "events_upcoming_source_idx";--> statement-breakpoint
DROP INDEX "events_upcoming_geo_idx";--> statement-breakpoint
CREATE INDEX "events_upcoming_category_idx" ON "events" USING btree ("status","category","end_date","source_type","start_date","series_prev_end") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_upcoming_source_idx" ON "events" USING btree ("status","source_type","end_date","category","start_date","series_prev_end") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_upcoming_geo_idx" ON "events" USING btree ("status","lat","lng","end_date","category","source_type","series_prev_end") WHERE "events"."gone_at" is null;