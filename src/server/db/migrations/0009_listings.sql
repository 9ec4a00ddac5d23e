CREATE TABLE "image_variants" (
	"image_id" uuid NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "image_variants_image_id_width_pk" PRIMARY KEY("image_id","width")
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_url" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"width" integer,
	"height" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fetched_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "events_popularity_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "checkin_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "price_max" numeric(10, 2);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "price_note" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "image_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "series_key" text GENERATED ALWAYS AS (lower(title) || '|' || coalesce(nullif(lower(venue_name), ''), 'source:' || source_type)) STORED;--> statement-breakpoint
ALTER TABLE "image_variants" ADD CONSTRAINT "image_variants_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "images_source_url_idx" ON "images" USING btree ("source_url");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_series_idx" ON "events" USING btree ("series_key","start_date") WHERE "events"."gone_at" is null;--> statement-breakpoint
CREATE INDEX "events_image_pending_idx" ON "events" USING btree ("image_url") WHERE "events"."image_url" is not null and "events"."image_id" is null;--> statement-breakpoint
CREATE INDEX "events_popularity_idx" ON "events" USING btree ("status",("favorite_count" + "attendee_count" + "checkin_count") desc,"start_date","id");--> statement-breakpoint
-- Check-ins made before the count existed: each paid check-in is one person at the event.
UPDATE "events" SET "checkin_count" = c.n FROM (SELECT "event_id", count(DISTINCT "user_id")::int AS n FROM "point_awards" WHERE "activity_type" = 'check_in' AND "event_id" IS NOT NULL GROUP BY "event_id") c WHERE c."event_id" = "events"."id";
