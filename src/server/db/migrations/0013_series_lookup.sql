DROP INDEX "events_series_idx";--> statement-breakpoint
CREATE INDEX "events_series_idx" ON "events" USING btree ("series_key","start_date","id","status","end_date") WHERE "events"."gone_at" is null;