CREATE TABLE "duplicate_pairs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_a" uuid NOT NULL,
	"event_b" uuid NOT NULL,
	"kind" text NOT NULL,
	"score" real NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "geo_approx" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "merged_into" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "premerge_status" text;--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_event_a_events_id_fk" FOREIGN KEY ("event_a") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_event_b_events_id_fk" FOREIGN KEY ("event_b") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "duplicate_pairs_pair_idx" ON "duplicate_pairs" USING btree ("event_a","event_b");--> statement-breakpoint
CREATE INDEX "duplicate_pairs_status_idx" ON "duplicate_pairs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "duplicate_pairs_b_idx" ON "duplicate_pairs" USING btree ("event_b");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_merged_into_events_id_fk" FOREIGN KEY ("merged_into") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_merged_into_idx" ON "events" USING btree ("merged_into") WHERE "events"."merged_into" is not null;